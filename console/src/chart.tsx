/** A uPlot time-series chart that follows its container's width. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569', '#ea580c'];

/** Mostly gaps: fewer than one value in ten buckets. */
function sparse(values: Array<number | null>): boolean {
  const present = values.filter((value) => value !== null).length;
  return present > 0 && present * 10 < values.length;
}

export interface Line {
  label: string;
  values: Array<number | null>;
}

/** `times` in epoch ms; one line per series, null where there is no value. */
export function Chart({ title, times, lines, format }: { title: string; times: number[]; lines: Line[]; format?: (value: number) => string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current!;
    const options: uPlot.Options = {
      width: Math.max(200, target.clientWidth),
      height: 180,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      series: [
        {},
        ...lines.map((line, index) => ({
          label: line.label,
          stroke: COLORS[index % COLORS.length],
          width: 1.5,
          spanGaps: false,
          // A measure with values in only a few buckets (percentiles) would draw nothing between gaps: mark each value.
          points: sparse(line.values) ? { show: true, size: 5 } : undefined,
          value: format ? (_: uPlot, value: number | null) => (value === null ? '—' : format(value)) : undefined,
        })),
      ],
      axes: [{}, { size: 72, values: format ? (_: uPlot, ticks: number[]) => ticks.map(format) : undefined }],
    };
    const data = [times.map((t) => t / 1000), ...lines.map((line) => line.values)] as uPlot.AlignedData;
    const plot = new uPlot(options, data, target);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, target.clientWidth), height: 180 }));
    resize.observe(target);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, lines]);
  return (
    <figure class="chart" data-chart={title}>
      <figcaption>{title}</figcaption>
      <div ref={box} />
    </figure>
  );
}
