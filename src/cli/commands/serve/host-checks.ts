/**
 * What a local platform needs from this machine, checked the way the server's engines look for it
 * (the serve folder is the CLI's one door to the server's code): Chromium for screenshot tasks,
 * fonts for illustration captions. For `facet status` against a platform on this host.
 */
export interface HostCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export async function hostChecks(env: NodeJS.ProcessEnv): Promise<HostCheck[]> {
  const [{ DEFAULT_CHROMIUM, chromiumAvailable }, { captionFonts }] = await Promise.all([
    import('../../../server/engines/screenshot.js'),
    import('../../../server/engines/fonts.js'),
  ]);
  const chromium = env.FACET_CHROMIUM || DEFAULT_CHROMIUM;
  const fonts = captionFonts();
  return [
    (await chromiumAvailable(chromium))
      ? { name: 'chromium', ok: true, detail: `Chromium at ${chromium}` }
      : {
          name: 'chromium',
          ok: false,
          detail: `no Chromium at ${chromium}: screenshot tasks fail (install chromium, or set FACET_CHROMIUM / serve --chromium)`,
        },
    fonts.length > 0
      ? {
          name: 'fonts',
          ok: true,
          detail: `fonts: ${fonts.length} caption font file${fonts.length === 1 ? '' : 's'} (${fonts[0]}${fonts.length > 1 ? ', …' : ''})`,
        }
      : {
          name: 'fonts',
          ok: false,
          detail: 'fonts: none under /usr/share/fonts: illustrations have no captions (install fonts-dejavu-core)',
        },
  ];
}
