/**
 * The files a shell reads when it starts, relative to the home folder: whatever they say runs in
 * every new shell. Writing them asks (protected-paths.ts), and a sandbox whose writable folders
 * hold the home keeps them read-only (bwrap-arguments.ts).
 */
export const SHELL_STARTUP_FILES: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".profile",
  ".login",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".cshrc",
  ".tcshrc",
];

/** fish keeps its startup files in a folder of its own. */
export const FISH_CONFIGURATION_FOLDER = ".config/fish";
