/**
 * Bar charts (Chart.js, tree-shaken to bars) of usage by day, stacked by series, with the same numbers as a table
 * for screen readers and for copying.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const PALETTE = ['#0b5cad', '#2a9d8f', '#e9a23b', '#8e44ad', '#5d6d7e', '#16a085', '#d35400', '#7f8c8d'];
export const ERROR_COLOUR = '#c0392b';

export interface Series {
  label: string;
  values: number[];
  colour?: string;
}

export function BarChart({ title, labels, series, id }: { title: string; labels: string[]; series: Series[]; id: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: s.colour ?? PALETTE[i % PALETTE.length], stack: 'one' })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    return () => chart.destroy();
  }, [labels.join(), JSON.stringify(series)]);
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} id={id} role="img" aria-label={`${title}: bar chart; the numbers are in the table below`} />
      </div>
      <details>
        <summary>{title} as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>{s.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
