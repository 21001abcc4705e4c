import { CliError, EXIT } from '../errors.js';

interface ResvgModule {
  Resvg: new (
    svg: string,
    options?: { font?: { loadSystemFonts?: boolean }; background?: string },
  ) => { render(): { asPng(): Buffer; width: number; height: number } };
}

/**
 * Renders SVG text to PNG with @resvg/resvg-js, loaded only when a PNG is asked for (it is a
 * native module that the SVG path does not need). Missing: a clear error telling how to get it.
 */
export async function svgToPng(svg: string): Promise<Buffer> {
  let mod: ResvgModule;
  try {
    mod = (await import('@resvg/resvg-js')) as ResvgModule;
  } catch (err) {
    throw new CliError(
      EXIT.failure,
      'png_unavailable',
      `PNG output needs @resvg/resvg-js, which could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)}). Install it with 'npm i -g @resvg/resvg-js' (or beside marketlens), or write an .svg instead.`,
    );
  }
  return new mod.Resvg(svg, { font: { loadSystemFonts: true } }).render().asPng();
}
