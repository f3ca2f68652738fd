/**
 * FusedR history as a uPlot line with the band edges (1.5, 2.5, 4.0) dashed and the timeline marks
 * (anomalies, context events such as deploys) as vertical lines. The same marks are listed as text
 * next to the chart for keyboard and screen-reader users.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { BAND_STYLES, CRITICAL_EDGE, EMERGENCY_EDGE, WARNING_EDGE } from '../model/bands.js';
import { axisSpace, axisTemplate } from '../model/time-range.js';

export interface TimelineMark {
  /** epoch ms */
  t: number;
  kind: 'anomaly' | 'context';
  label: string;
}

const MARK_COLOURS: Record<TimelineMark['kind'], string> = { anomaly: '#ff8a80', context: '#64b5f6' };

/** `range`: the x axis in epoch seconds (model/time-range.ts), fixed whatever the points */
export function HistoryChart(props: { times: number[]; values: number[]; marks: TimelineMark[]; label: string; range: [number, number] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const marks = useRef<TimelineMark[]>(props.marks);
  marks.current = props.marks;
  const range = useRef<[number, number]>(props.range);
  range.current = props.range;

  useEffect(() => {
    const el = box.current;
    if (el === null) return undefined;
    const edges: [number, string][] = [
      [WARNING_EDGE, BAND_STYLES.warning.background],
      [CRITICAL_EDGE, BAND_STYLES.critical.background],
      [EMERGENCY_EDGE, BAND_STYLES.emergency.background],
    ];
    const drawOverlay = (u: uPlot): void => {
      const ctx = u.ctx;
      const { left, top, width, height } = u.bbox;
      ctx.save();
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 4]);
      for (const [edge, colour] of edges) {
        const y = u.valToPos(edge, 'y', true);
        if (y < top || y > top + height) continue;
        ctx.strokeStyle = colour;
        ctx.beginPath();
        ctx.moveTo(left, y);
        ctx.lineTo(left + width, y);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      for (const m of marks.current) {
        const x = u.valToPos(m.t / 1000, 'x', true);
        if (x < left || x > left + width) continue;
        ctx.strokeStyle = MARK_COLOURS[m.kind];
        ctx.lineWidth = m.kind === 'context' ? 2 : 1;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
      }
      ctx.restore();
    };
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height: 220,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true, range: () => range.current }, y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max + 0.5))] } },
      axes: [
        {
          stroke: '#c9d1d9',
          grid: { stroke: '#2a3441' },
          ticks: { stroke: '#2a3441' },
          space: () => axisSpace(axisTemplate(range.current[1] - range.current[0])),
          values: (_u, splits) => {
            const format = uPlot.fmtDate(axisTemplate(range.current[1] - range.current[0]));
            const labels = splits.map((s) => format(new Date(s * 1000)));
            // the ticks and labels drawn (epoch s; text), for tests and tools reading the page
            box.current?.setAttribute('data-x-ticks', splits.join(','));
            box.current?.setAttribute('data-x-labels', labels.join('|'));
            return labels;
          },
        },
        { stroke: '#c9d1d9', grid: { stroke: '#2a3441' }, ticks: { stroke: '#2a3441' }, size: 40 },
      ],
      series: [{}, { label: 'FusedR', stroke: '#f0a030', width: 2, points: { show: false } }],
      hooks: { draw: [drawOverlay] },
    };
    plot.current = new uPlot(opts, [[], []], el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(280, el.clientWidth), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = undefined;
    };
  }, []);

  useEffect(() => {
    const u = plot.current;
    if (u === undefined) return;
    u.setData([props.times.map((t) => t / 1000), props.values]);
    // the x range uPlot drew (epoch s), for tests and tools reading the page
    box.current?.setAttribute('data-x-min', String(u.scales['x']?.min ?? ''));
    box.current?.setAttribute('data-x-max', String(u.scales['x']?.max ?? ''));
  }, [props.times, props.values, props.marks, props.range[0], props.range[1]]);

  return <div class="chart" ref={box} role="img" aria-label={props.label} />;
}
