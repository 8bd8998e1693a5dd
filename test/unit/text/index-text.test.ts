import { describe, expect, it } from 'vitest';
import { indexText } from '../../../src/server/text/segment.js';

describe('the text a full-text index reads', () => {
  it('is nothing for text with spaces', () => {
    expect(indexText('JapaneseHolidays.isHolidayAt(date)')).toBeNull();
  });

  // PostgreSQL read `Chinese.t2s` as one host name: "t2s 方法做什么？" found no passage on it.
  it("splits a name segmentation keeps whole across a dot into its names, not a number's decimals", () => {
    const text = indexText("Chinese.t2s('繁体转简体'); JapaneseHolidays.isHolidayAt(d) 3.5萬")!;
    expect(text.split(' ')).toEqual(
      expect.arrayContaining(['Chinese', 't2s', 'JapaneseHolidays', 'isHolidayAt', '3.5']),
    );
  });
});
