import type { PerformanceReport, PerformanceRow } from '@admin/shared';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, XAxis, YAxis } from 'recharts';
import { useRouteLabel } from '../../components/page.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { PerformanceCards } from './performance-cards.tsx';
import { chartRows, hasChartData, MIX_HEX } from './performance-chart-data.ts';
import type { PerformanceColumn } from './performance-columns.ts';
import './performance-print.css';

/**
 * The print view: the report on A4 or Letter. Charts are drawn at a fixed size with recharts
 * itself, since a responsive container does not resize for paper and can print empty
 * (docs/decisions/066); the wide table is printed as two tables
 * (survey figures, then alerts and reviews), each starting with the group, so no column is cut.
 */
const CHART_WIDTH = 680;
const CHART_HEIGHT = 200;
const SURVEY_KEYS = new Set(['sent', 'delivered', 'opened', 'responses', 'responseRate', 'promoters', 'passives', 'detractors', 'nps']);

function PrintTable({ caption, rows, columns }: { caption: string; rows: PerformanceRow[]; columns: PerformanceColumn[] }) {
  return (
    <table className="performance-print-table">
      <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 2 }}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.key} scope="col">
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            {columns.map((c) => (
              <td key={c.key}>{c.text(r)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PrintCharts({ report }: { report: PerformanceReport }) {
  if (!hasChartData(report)) return <Text size="sm">No responses in this period.</Text>;
  const rows = chartRows(report.series.current);
  return (
    <>
      <figure aria-label="NPS and responses over time">
        <Text fw={600} size="sm">
          NPS and responses over time
        </Text>
        <ComposedChart width={CHART_WIDTH} height={CHART_HEIGHT} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" fontSize={9} />
          <YAxis yAxisId="left" fontSize={9} />
          <YAxis yAxisId="right" orientation="right" domain={[-100, 100]} fontSize={9} />
          <Legend wrapperStyle={{ fontSize: 9 }} />
          <Bar yAxisId="left" dataKey="Responses" fill="#1971c2" maxBarSize={24} isAnimationActive={false} />
          <Line yAxisId="right" dataKey="NPS" stroke="#9c36b5" dot={false} connectNulls={false} isAnimationActive={false} />
        </ComposedChart>
      </figure>
      <figure aria-label="Score mix">
        <Text fw={600} size="sm">
          Score mix
        </Text>
        <BarChart width={CHART_WIDTH} height={CHART_HEIGHT} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" fontSize={9} />
          <YAxis fontSize={9} />
          <Legend wrapperStyle={{ fontSize: 9 }} />
          {(['Promoters', 'Passives', 'Detractors'] as const).map((name) => (
            <Bar key={name} dataKey={name} stackId="mix" fill={MIX_HEX[name]} isAnimationActive={false} />
          ))}
        </BarChart>
      </figure>
    </>
  );
}

/** The report laid out for paper; `autoPrint` opens the browser's print dialog once it is drawn. */
export function PerformancePrint(props: {
  report: PerformanceReport;
  rows: PerformanceRow[];
  columns: PerformanceColumn[];
  /** The filters in words: dates and their comparison, group by, channel, the chosen names. */
  summary: string[];
  previousLabel: string;
  autoPrint: boolean;
  onBack(): void;
}) {
  // The page's one heading and the tab's title, as on screen: a printed page's header shows the title.
  const label = useRouteLabel();
  useDocumentTitle(label);
  const printed = useRef(false);
  useEffect(() => {
    if (!props.autoPrint || printed.current) return;
    printed.current = true;
    // After the browser has laid the view out, so the dialog previews what is drawn.
    const timer = window.setTimeout(() => window.print(), 300);
    return () => window.clearTimeout(timer);
  }, [props.autoPrint]);
  const [group, ...rest] = props.columns;
  const surveyColumns = [group, ...rest.filter((c) => SURVEY_KEYS.has(c.key))].filter((c) => c !== undefined);
  const otherColumns = [group, ...rest.filter((c) => !SURVEY_KEYS.has(c.key))].filter((c) => c !== undefined);
  return (
    <Stack gap={6} className="performance-print">
      <Group className="performance-print-actions" gap="xs">
        <Button onClick={() => window.print()}>Print</Button>
        <Button variant="default" onClick={props.onBack}>
          Back to the report
        </Button>
      </Group>
      <Title order={1} size="h3">
        {label}
      </Title>
      {props.summary.map((line) => (
        <Text key={line} size="sm">
          {line}
        </Text>
      ))}
      <PerformanceCards cards={props.report.cards} previousLabel={props.previousLabel} />
      <PrintCharts report={props.report} />
      <PrintTable caption="Surveys" rows={props.rows} columns={surveyColumns} />
      <PrintTable caption="Scores, alerts and reviews" rows={props.rows} columns={otherColumns} />
    </Stack>
  );
}
