/**
 * The desktop slicers the bridge knows: where their executables are usually found, how each says
 * its version, and where an installation keeps its profiles. Installing one is enough for the
 * bridge to find it; the table decides which it can slice with (`slices`).
 */
import os from 'node:os';
import path from 'node:path';

export type DesktopSlicerId = 'prusaslicer' | 'orcaslicer' | 'bambustudio' | 'curaengine';

export interface DesktopSlicerKind {
  id: DesktopSlicerId;
  name: string;
  /** Executable names looked up in every directory of the search path. */
  binaries: readonly string[];
  /** File names in the search directories that are this slicer too (AppImages carry a version in their name). */
  appImage?: RegExp;
  versionArgs: readonly string[];
  /** The version from what `versionArgs` printed (stdout and stderr together). */
  version(output: string): string | null;
  /** Folders of an installation (relative to the executable's folder) that hold its vendor profiles. */
  profileDirs: readonly string[];
  /** The bridge slices with it (the others are detected and their profiles listed). */
  slices: boolean;
}

function versionAfter(label: string): (output: string) => string | null {
  const pattern = new RegExp(`${label}[- ]v?(\\d+(?:\\.\\d+)+[^\\s:,]*)`, 'i');
  return (output) => pattern.exec(output)?.[1] ?? null;
}

export const DESKTOP_SLICERS: readonly DesktopSlicerKind[] = [
  {
    id: 'prusaslicer',
    name: 'PrusaSlicer',
    binaries: ['prusa-slicer', 'PrusaSlicer'],
    appImage: /^PrusaSlicer.*\.AppImage$/i,
    // PrusaSlicer 2.5 prints "PrusaSlicer-2.5.0+UNKNOWN based on Slic3r" at the top of its help.
    versionArgs: ['--help'],
    version: versionAfter('PrusaSlicer'),
    profileDirs: ['../share/PrusaSlicer/profiles', 'resources/profiles'],
    slices: true,
  },
  {
    id: 'orcaslicer',
    name: 'OrcaSlicer',
    binaries: ['orca-slicer', 'OrcaSlicer'],
    appImage: /^OrcaSlicer.*\.AppImage$/i,
    versionArgs: ['--help'],
    version: versionAfter('OrcaSlicer'),
    profileDirs: ['../share/OrcaSlicer/profiles', 'resources/profiles'],
    slices: false,
  },
  {
    id: 'bambustudio',
    name: 'Bambu Studio',
    binaries: ['bambu-studio', 'BambuStudio'],
    appImage: /^Bambu_?Studio.*\.AppImage$/i,
    versionArgs: ['--help'],
    version: versionAfter('BambuStudio'),
    profileDirs: ['../share/BambuStudio/profiles', 'resources/profiles'],
    slices: false,
  },
  {
    id: 'curaengine',
    name: 'CuraEngine',
    binaries: ['CuraEngine'],
    // "Cura_SteamEngine version 4.13.0", on stderr.
    versionArgs: ['help'],
    version: versionAfter('Cura_SteamEngine version'),
    profileDirs: ['../share/cura/resources/definitions'],
    slices: true,
  },
];

/** The order the bridge tries them in for a slice. */
export const SLICE_PREFERENCE: readonly DesktopSlicerId[] = ['prusaslicer', 'curaengine'];

/** Folders besides PATH where desktop slicers are installed by hand (AppImages, tarballs). */
export function knownInstallDirs(home = os.homedir()): string[] {
  return [
    path.join(home, 'Applications'),
    path.join(home, '.local', 'bin'),
    '/opt',
    '/opt/PrusaSlicer',
    '/opt/OrcaSlicer',
    '/opt/BambuStudio',
    '/usr/local/bin',
  ];
}

/** Where the bridge looks by default: PATH, then the known install folders. */
export function defaultSearchDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const fromPath = (env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
  return [...new Set([...fromPath, ...knownInstallDirs()])];
}
