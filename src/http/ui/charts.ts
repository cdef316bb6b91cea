/**
 * Small inline SVG charts for the status page, drawn on the server: no script, no style
 * attribute (the page's content-security-policy allows neither), colours from the page's
 * stylesheet by class. Each bar carries its value as an SVG <title>, which browsers show on hover.
 */
import { html, type Html } from './html.js';

const WIDTH = 150;
const HEIGHT = 28;

export interface ChartBar {
  readonly value: number;
  /** The part of `value` drawn as errors (the lower part of the bar). */
  readonly errors?: number;
  /** Hover text. */
  readonly title: string;
}

/** One bar per value, left to right, scaled to the largest; `label` names the chart for screen readers. */
export function barChart(bars: readonly ChartBar[], label: string): Html {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const step = WIDTH / Math.max(1, bars.length);
  const width = Math.max(1, step - 1);
  const rects = bars.map((bar, i) => {
    const x = round(i * step);
    const h = bar.value === 0 ? 0 : Math.max(1, (bar.value / max) * (HEIGHT - 2));
    const e = bar.errors ? Math.max(1, (bar.errors / max) * (HEIGHT - 2)) : 0;
    return html`<g><title>${bar.title}</title><rect class="slot" x="${x}" y="0" width="${round(width)}" height="${HEIGHT}"></rect>${
      h > 0 ? html`<rect class="bar" x="${x}" y="${round(HEIGHT - h)}" width="${round(width)}" height="${round(h)}"></rect>` : ''
    }${e > 0 ? html`<rect class="bar-error" x="${x}" y="${round(HEIGHT - e)}" width="${round(width)}" height="${round(e)}"></rect>` : ''}</g>`;
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${label}">${rects}</svg>`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
