// uPlot charts: one bar per value (cost per label value, key, model...) or cost over time.
// Colours come from the page's CSS variables, so the charts follow light and dark.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

interface Props {
  title: string;
  /** Category names for bars; null: x holds UNIX seconds and the chart is a line over time. */
  categories: string[] | null;
  x: number[];
  y: number[];
  yLabel: string;
}

export function Chart({ title, categories, x, y, yLabel }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    const style = getComputedStyle(document.documentElement);
    const ink = style.getPropertyValue('--ink').trim();
    const accent = style.getPropertyValue('--accent').trim();
    const grid = style.getPropertyValue('--rule').trim();
    const axis = { stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 240,
        legend: { show: false },
        // The page states times in UTC, so the axis does too (uPlot defaults to the browser's zone).
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: {
          x: { time: categories === null, ...(categories !== null && { range: [-0.5, x.length - 0.5] as [number, number] }) },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          { ...axis, ...(categories !== null && { values: (_u: uPlot, ticks: number[]) => ticks.map((t) => categories[t] ?? ''), splits: () => x }) },
          { ...axis, label: yLabel, size: 80, values: (_u: uPlot, ticks: number[]) => ticks.map(usdTick) },
        ],
        series: [
          {},
          categories === null
            ? { label: yLabel, stroke: accent, width: 2, points: { show: true } }
            : { label: yLabel, stroke: accent, fill: accent, paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } },
        ],
      },
      [x, y],
      el,
    );
    return () => plot.destroy();
  }, [categories, x, y, yLabel]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} role="img" aria-label={`${title} (the table holds the same figures)`} />
    </figure>
  );
}

/** Small costs in plain decimals: uPlot's own tick labels round micro-dollars to 0. */
const usdTick = (v: number): string => (v === 0 ? '0' : String(Number(v.toPrecision(3))));
