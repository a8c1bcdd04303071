// Terminal colours for plans and diagnostics: the few styles steward uses, as 16-colour ANSI
// codes, written exactly as chalk writes them at its level 1 (a style closed inside the text is
// reopened, and every line break is closed before and reopened after) so the output stays the
// same. Kept here instead of importing chalk: loading chalk and its colour detection cost
// every command a measurable part of its start-up, and the command already decides whether to
// colour (useColor).

const CODES = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  bold: [1, 22],
  dim: [2, 22],
} as const;

export type StyleName = keyof typeof CODES;

/** One style (or a chain of them, `palette.red.bold`), applied by calling it. */
export type Paint = ((text: string | number) => string) & { readonly [name in StyleName]: Paint };

/** The styles, off (every style returns its text unchanged) or on. */
export type Palette = { readonly [name in StyleName]: Paint };

interface Styler {
  open: string;
  close: string;
  openAll: string;
  closeAll: string;
  parent: Styler | undefined;
}

const PLAIN: Palette = plainPalette();

/** The palette for a command: ANSI codes when `color`, plain text otherwise. */
export function palette(color: boolean): Palette {
  return color ? colored(undefined) : PLAIN;
}

function plainPalette(): Palette {
  const paint = ((text: string | number) => String(text)) as Paint;
  for (const name of Object.keys(CODES) as StyleName[]) Object.defineProperty(paint, name, { value: paint });
  return paint;
}

function colored(parent: Styler | undefined): Palette {
  const styles = {} as Record<StyleName, Paint>;
  for (const name of Object.keys(CODES) as StyleName[]) {
    Object.defineProperty(styles, name, {
      get: () => paintWith(styler(name, parent)),
      enumerable: true,
    });
  }
  return styles;
}

function styler(name: StyleName, parent: Styler | undefined): Styler {
  const [openCode, closeCode] = CODES[name];
  const open = `\u001B[${openCode}m`;
  const close = `\u001B[${closeCode}m`;
  return parent === undefined
    ? { open, close, openAll: open, closeAll: close, parent }
    : { open, close, openAll: parent.openAll + open, closeAll: close + parent.closeAll, parent };
}

function paintWith(style: Styler): Paint {
  const paint = ((text: string | number) => apply(style, String(text))) as Paint;
  for (const name of Object.keys(CODES) as StyleName[]) {
    Object.defineProperty(paint, name, { get: () => paintWith(styler(name, style)) });
  }
  return paint;
}

function apply(style: Styler, text: string): string {
  if (text === '') return text;
  let body = text;
  if (body.includes('\u001B')) {
    // A style closed inside the text is reopened, so the rest of the text keeps it.
    for (let at: Styler | undefined = style; at !== undefined; at = at.parent) body = body.split(at.close).join(at.close + at.open);
  }
  if (body.includes('\n')) {
    // Closed before each line break and reopened after it (a terminal may bleed it otherwise).
    body = body.replace(/\r?\n/g, (lineBreak) => style.closeAll + lineBreak + style.openAll);
  }
  return style.openAll + body + style.closeAll;
}
