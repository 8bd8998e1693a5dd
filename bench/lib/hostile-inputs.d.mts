/** Types of hostile-inputs.mjs (hostile documents built in code, for tests and bench/event-loop). */
export declare const nestedDivs: (depth: number) => string;
export declare const unclosedInline: (count: number) => string;
export declare function flatPage(bytes: number): string;
export declare function zipOf(entries: Record<string, Buffer | string>): Promise<Buffer>;
export declare function lyingSizes(zip: Buffer, size: number): Buffer;
export declare function docxOf(paragraph: string, count: number): Promise<Buffer>;
export declare const docxBomb: (bytes: number) => Promise<Buffer>;
export declare const themeBomb: (bytes: number) => Promise<Buffer>;
export declare function manyPagePdf(pages: number): Buffer;
export declare function flateBombPdf(bytes: number): Buffer;
