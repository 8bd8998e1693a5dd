import * as pptxModule from 'pptxgenjs';

/**
 * pptxgenjs ships ESM at runtime but CommonJS-style types, so under NodeNext its default import is
 * typed as the module object. This is the class either way, typed as the class.
 */
type Ctor = (typeof pptxModule)['default']['default'];
export type Pptx = InstanceType<Ctor>;
export type TextProps = import('pptxgenjs').default.TextProps;
const mod = pptxModule as unknown as { default: { default?: unknown } };
export const PptxGenJS = (mod.default.default ?? mod.default) as Ctor;
