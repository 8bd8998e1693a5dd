/**
 * The pager long output goes through on a terminal, as gh does: FACET_PAGER, else PAGER; none
 * when neither is set, or set to '' or `cat`. `less` gets -FRX through LESS unless LESS is set
 * (quit when it fits, keep colours, leave the text on screen).
 */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = (env.FACET_PAGER ?? env.PAGER ?? '').trim();
  return chosen && chosen !== 'cat' ? chosen : undefined;
}

/** Runs the pager over the text and waits for the person to quit it; false when it could not start. */
export function page(command: string, text: string, env: NodeJS.ProcessEnv): boolean {
  // Loaded only when a pager runs: most commands never start a process.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const r = spawnSync(command, {
    shell: true,
    input: text,
    stdio: ['pipe', 'inherit', 'inherit'],
    env: { LESS: 'FRX', ...env },
  });
  return !r.error && r.status !== 127;
}
