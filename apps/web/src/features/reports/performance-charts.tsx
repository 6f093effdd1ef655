import type { PerformanceReport } from '@admin/shared';
import { BarChart, CompositeChart } from '@mantine/charts';
import { Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import '@mantine/charts/styles.css';
import { chartRows, hasChartData, MIX_SERIES } from './performance-chart-data.ts';

/**
 * The report's charts on screen (@mantine/charts, loaded only by this lazy route): NPS and
 * responses over time, and the score mix per bucket. The print view draws the same data at fixed
 * sizes (performance-print.tsx), as a responsive chart does not resize for paper.
 */
function ChartFrame({ title, summary, children }: { title: string; summary: string; children: ReactNode }) {
  return (
    <Paper withBorder p="sm" component="figure" m={0} aria-label={title}>
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {children}
      <Text component="figcaption" size="xs" c="dimmed" mt="xs">
        {summary}
      </Text>
    </Paper>
  );
}

export function PerformanceCharts({ report, loading }: { report: PerformanceReport | undefined; loading: boolean }) {
  if (!report) {
    return loading ? (
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" aria-hidden="true">
        <Skeleton h={260} />
        <Skeleton h={260} />
      </SimpleGrid>
    ) : null;
  }
  if (!hasChartData(report)) {
    return (
      <Paper withBorder p="md" role="status">
        <Text size="sm">No responses in this period, so the charts have nothing to show. Widen the dates or the filters.</Text>
      </Paper>
    );
  }
  const rows = chartRows(report.series.current);
  const per = report.series.bucket === 'day' ? 'day' : 'month';
  const first = rows[0]?.label ?? '';
  const last = rows.at(-1)?.label ?? '';
  const totals = rows.reduce((t, r) => ({ p: t.p + r.Promoters, pa: t.pa + r.Passives, d: t.d + r.Detractors, n: t.n + r.Responses }), {
    p: 0,
    pa: 0,
    d: 0,
    n: 0,
  });
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" className="performance-charts">
      <ChartFrame
        title="NPS and responses over time"
        summary={`Per ${per}, ${first} to ${last}: ${totals.n.toLocaleString('en-US')} responses; NPS on the right axis.`}
      >
        {/* Responses as bars on the left axis (a count), NPS as a line on the right (−100…100). */}
        <CompositeChart
          h={240}
          data={rows}
          dataKey="label"
          series={[
            { name: 'Responses', color: 'blue.7', type: 'bar' },
            { name: 'NPS', color: 'grape.7', type: 'line', yAxisId: 'right' },
          ]}
          withRightYAxis
          yAxisLabel="Responses"
          rightYAxisLabel="NPS"
          rightYAxisProps={{ domain: [-100, 100] }}
          withLegend
          curveType="linear"
          connectNulls={false}
          withDots={rows.length <= 31}
          maxBarWidth={24}
        />
      </ChartFrame>
      <ChartFrame
        title="Score mix"
        summary={`Per ${per}: ${totals.p.toLocaleString('en-US')} promoters, ${totals.pa.toLocaleString('en-US')} passives, ${totals.d.toLocaleString('en-US')} detractors.`}
      >
        <BarChart h={240} data={rows} dataKey="label" type="stacked" series={[...MIX_SERIES]} withLegend />
      </ChartFrame>
    </SimpleGrid>
  );
}
