import * as c from '../contract/slides.js';
import { callRoute } from './call.js';
import type { Transport } from './transport.js';

export const slidesClient = (t: Transport) => ({
  themes: (query: { lang?: 'en' | 'zh-Hans'; type?: 'default' | 'custom'; keyword?: string; page?: number; size?: number } = {}) =>
    callRoute(t, c.listThemes, { query: query as never }),
  createTheme: (body: c.CreateThemeRequest) => callRoute(t, c.createTheme, { body }),
  create: (body: c.CreatePptRequest) => callRoute(t, c.createPpt, { body }),
});
