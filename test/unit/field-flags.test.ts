import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { inFlagTerms } from '../../src/cli/field-flags.js';

const command = (...flags: string[]) => {
  const cmd = new Command('x');
  for (const f of flags) cmd.option(`${f} <v>`);
  return cmd;
};

describe('a 400 names the flag the CLI user typed, not the request field', () => {
  it('renamed fields, body./query. paths and snake_case names of the command’s options', () => {
    const slides = command('--theme', '--slides', '--livedoc');
    expect(inFlagTerms('ppt_config.ai_theme_id "x" is not a theme you can use', slides)).toBe(
      '--theme "x" is not a theme you can use',
    );
    expect(inFlagTerms('body.livedoc_short_id: LiveDoc ld_1 holds no text', slides)).toBe(
      '--livedoc: LiveDoc ld_1 holds no text',
    );
    expect(inFlagTerms('ppt_config.slide_count: must be at most 30', slides)).toBe('--slides: must be at most 30');
    expect(inFlagTerms('wait_for_selector is not a valid CSS selector', command('--wait-for'))).toBe(
      '--wait-for is not a valid CSS selector',
    );
    expect(inFlagTerms('body.name: too long', command('--name'))).toBe('--name: too long');
  });

  it('leaves plain words and the fields of a command without that flag alone', () => {
    expect(inFlagTerms('the name is taken', command('--name'))).toBe('the name is taken');
    // `facet api` has no --theme: the field stays as the server wrote it.
    expect(inFlagTerms('ppt_config.ai_theme_id "x" is not a theme', command('--method'))).toBe(
      'ppt_config.ai_theme_id "x" is not a theme',
    );
    expect(inFlagTerms('ppt_config.ai_theme_id bad', undefined)).toBe('ppt_config.ai_theme_id bad');
  });

  it("extract's --selector and a paging cursor are named as the person typed them", () => {
    const extract = command('--selector', '--wait-for');
    expect(inFlagTerms('target_selector "#x" matches no element on the page', extract)).toBe(
      '--selector "#x" matches no element on the page',
    );
    // "selector:" inside prose is not a field, though the command has --selector.
    expect(inFlagTerms('target_selector "a[[" is not a valid CSS selector: Expected name', extract)).toBe(
      '--selector "a[[" is not a valid CSS selector: Expected name',
    );
    expect(inFlagTerms('selector: Required', extract)).toBe('--selector: Required');
    const audit = command('--cursor');
    expect(
      inFlagTerms('cursor: not a cursor this server gave out (use X-Next-Cursor of the previous page)', audit),
    ).toBe('--cursor: not a cursor this server gave out (use the --cursor value the previous page printed)');
    expect(inFlagTerms('use X-Next-Cursor of the previous page', command('--method'))).toBe(
      'use X-Next-Cursor of the previous page',
    );
  });
});
