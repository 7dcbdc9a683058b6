/**
 * The custom G-code macro language of PrusaSlicer and OrcaSlicer: `[name]`, `{expression}`,
 * `{if}/{elsif}/{else}/{endif}`, `{local x = ...}`. See ../README.md for what is supported.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import { evaluateProgram } from './evaluator.js';
import { parseTemplate } from './parser.js';
import { TemplateError, type TemplateVars } from './types.js';

export type { TemplateScalar, TemplateValue, TemplateVars } from './types.js';

/**
 * Expands a template. `where` names the template in errors ("machine_start_gcode"), which are
 * ERR_INVALID_SETTING (400) naming the template and the line: the template is part of the config.
 */
export function renderTemplate(source: string, vars: TemplateVars, where: string): string {
  try {
    return evaluateProgram(parseTemplate(source), vars);
  } catch (err) {
    if (err instanceof TemplateError) {
      throw new AppError(ErrorCode.invalidSetting, 400, `${where}: ${err.message} (line ${err.line})`, { key: where, line: err.line });
    }
    throw err;
  }
}
