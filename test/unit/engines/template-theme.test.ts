import { describe, expect, it } from 'vitest';
import { readTemplateTheme } from '../../../src/server/engines/slides/template-theme.js';
import { zipOf } from '../../../bench/lib/hostile-inputs.mjs';

const slot = (name: string, colour: string) => `<a:${name}>${colour}</a:${name}>`;

function themeXml(name: string, heading: string, accent: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="${name}"><a:themeElements>
<a:clrScheme name="c">${slot('dk1', '<a:sysClr val="windowText" lastClr="000000"/>')}${slot('lt1', '<a:sysClr val="window" lastClr="ffffff"/>')}
${slot('dk2', '<a:srgbClr val="1F2937"/>')}${slot('lt2', '<a:srgbClr val="F3F4F6"/>')}${slot('accent1', `<a:srgbClr val="${accent}"/>`)}${slot('accent2', '<a:srgbClr val="10B981"/>')}</a:clrScheme>
<a:fontScheme name="f"><a:majorFont><a:latin typeface="${heading}"/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/></a:minorFont></a:fontScheme>
</a:themeElements></a:theme>`;
}

describe('a PowerPoint template theme', () => {
  it("is the slide master's theme, with entities decoded and system colours taken from lastClr", async () => {
    const template = await zipOf({
      'ppt/theme/theme1.xml': themeXml('Not this one', 'Arial', '000000'),
      'ppt/theme/theme2.xml': themeXml('R&amp;D &#8211; Q3', 'Times New Roman', '2563eb'),
      'ppt/slideMasters/_rels/slideMaster1.xml.rels': `<?xml version="1.0"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>
<Relationship Target="../theme/theme2.xml" Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme"/>
</Relationships>`,
    });
    expect(await readTemplateTheme(template)).toEqual({
      name: 'R&D – Q3',
      colors: {
        dk1: '#000000',
        lt1: '#FFFFFF',
        dk2: '#1F2937',
        lt2: '#F3F4F6',
        accent1: '#2563EB',
        accent2: '#10B981',
      },
      fonts: {
        heading: { template: 'Times New Roman', font: 'Liberation Serif' },
        body: { template: 'Calibri', font: 'Carlito' },
      },
    });
  });

  it('without a usable colour is refused naming the slot', async () => {
    const template = await zipOf({ 'ppt/theme/theme1.xml': themeXml('x', 'Arial', 'nothex') });
    await expect(readTemplateTheme(template)).rejects.toThrow(/no usable accent1 colour/);
  });
});
