import * as c from '../contract/slides.js';
import { buildPath } from '../contract/route.js';
import { callRoute } from './call.js';
import { buildForm } from './multipart.js';
import type { Transport } from './transport.js';

export const slidesClient = (t: Transport) => ({
  themes: (
    query: {
      lang?: 'en' | 'zh-Hans';
      type?: 'default' | 'custom';
      keyword?: string;
      page?: number;
      size?: number;
    } = {},
  ) => callRoute(t, c.listThemes, { query: query }),
  createTheme: (body: c.CreateThemeRequest) => callRoute(t, c.createTheme, { body }),
  /** A custom theme from a local .pptx/.potx template (multipart, part "file"). */
  async importTheme(file: string, title?: string): Promise<c.Theme> {
    const route = c.importTheme;
    const result = await t.call<{ data: c.Theme }>({
      method: route.method,
      path: buildPath(route.path, {}),
      auth: route.auth,
      form: await buildForm({ title }, [{ field: 'file', file }]),
    });
    return result.data;
  },
  deleteTheme: (id: string) => callRoute(t, c.deleteTheme, { params: { theme_id: id } }),
  create: (body: c.CreatePptRequest) => callRoute(t, c.createPpt, { body }),
});
