/** The string `code`s of an error and its causes, outermost first (bounded: causes are our own wrappers). */
export function causeCodes(err: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur !== null && typeof cur === 'object' && depth < 6; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
}
