import type { ImageModel } from '../../contract/image-models.js';

/** The image models the local platform offers: one per local engine. */
export const IMAGE_MODELS: ImageModel[] = [
  {
    id: 'facet-illustration-1',
    name: 'Local illustration',
    kind: 'illustration',
    description: 'Deterministic SVG composition from the prompt (layout, palette, shapes, caption), rendered to PNG',
    default_size: '1024x768',
    max_size: '4096x4096',
  },
  {
    id: 'facet-screenshot-1',
    name: 'Local screenshot',
    kind: 'screenshot',
    description: 'Headless Chromium screenshot of a URL at the requested viewport, optionally the full page',
    default_size: '1280x800',
    max_size: '3840x2160',
  },
];
