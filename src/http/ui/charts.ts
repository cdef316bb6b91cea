/**
 * Small inline SVG charts for the status page, drawn on the server: no script, no style
 * attribute (the page's content-security-policy allows neither), colours from the page's
 * stylesheet by class. Each bar carries its value as an SVG <title>, which browsers show on hover;
 * under the bars an axis names the first and last minute and the value of a full-height bar.
 */
import { html, type Html } from './html.js';

const WIDTH = 150;
const HEIGHT = 28;
/** Room under the bars for the axis labels. */
const AXIS = 10;

export interface ChartBar {
  readonly value: number;
  /** The part of `value` drawn as server errors (the bottom of the bar). */
  readonly errors?: number;
  /** The part of `value` drawn as refused requests (above the errors). */
  readonly refused?: number;
  /** Hover text. */
  readonly title: string;
}

export interface ChartAxis {
  /** Labels of the first and the last bar (times). */
  readonly from: string;
  readonly to: string;
  /** The scale: what a full-height bar stands for, from the largest value. */
  readonly top: (max: number) => string;
}

/** One bar per value, left to right, scaled to the largest; `label` names the chart for screen readers. */
export function barChart(bars: readonly ChartBar[], label: string, axis: ChartAxis): Html {
  const max = Math.max(0, ...bars.map((b) => b.value));
  const step = WIDTH / Math.max(1, bars.length);
  const width = Math.max(1, step - 1);
  // a part of a bar with any value is at least a pixel high (no value above 0 when max is 0)
  const height = (v: number | undefined) => (!v ? 0 : Math.max(1, (v / max) * (HEIGHT - 2)));
  const rects = bars.map((bar, i) => {
    const x = round(i * step);
    const h = height(bar.value);
    const e = height(bar.errors);
    const r = height(bar.refused);
    return html`<g><title>${bar.title}</title><rect class="slot" x="${x}" y="0" width="${round(width)}" height="${HEIGHT}"></rect>${
      h > 0 ? html`<rect class="bar" x="${x}" y="${round(HEIGHT - h)}" width="${round(width)}" height="${round(h)}"></rect>` : ''
    }${r > 0 ? html`<rect class="bar-refused" x="${x}" y="${round(HEIGHT - e - r)}" width="${round(width)}" height="${round(r)}"></rect>` : ''}${
      e > 0 ? html`<rect class="bar-error" x="${x}" y="${round(HEIGHT - e)}" width="${round(width)}" height="${round(e)}"></rect>` : ''
    }</g>`;
  });
  const y = HEIGHT + AXIS - 1;
  const labels = html`<line class="axis-line" x1="0" y1="${HEIGHT}" x2="${WIDTH}" y2="${HEIGHT}"></line><text class="axis" x="0" y="${y}">${axis.from}</text><text class="axis" x="${
    WIDTH / 2
  }" y="${y}" text-anchor="middle">${max > 0 ? `top ${axis.top(max)}` : 'none'}</text><text class="axis" x="${WIDTH}" y="${y}" text-anchor="end">${axis.to}</text>`;
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT + AXIS}" width="${WIDTH}" height="${HEIGHT + AXIS}" role="img" aria-label="${label}">${rects}${labels}</svg>`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
