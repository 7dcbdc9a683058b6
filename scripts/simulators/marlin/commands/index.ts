/** Every G-code the virtual Marlin knows, by key ('G1', 'M105', 'T'); anything else is unknown. */
import type { CommandTable } from '../command-context.js';
import { FAN_COMMANDS } from './fans.js';
import { HEATER_COMMANDS } from './heaters.js';
import { HOST_COMMANDS } from './host.js';
import { MOTION_COMMANDS } from './motion.js';
import { SD_CARD_COMMANDS } from './sd-card.js';

export const COMMANDS: CommandTable = {
  ...MOTION_COMMANDS,
  ...HEATER_COMMANDS,
  ...FAN_COMMANDS,
  ...SD_CARD_COMMANDS,
  ...HOST_COMMANDS,
};
