import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { displayRows } from './ac-performance-rows.ts';
import { AcPerformanceTable } from './ac-performance-table.tsx';
import { acReport } from './ac-performance-test-data.ts';

const filters = { coordinators: [], clients: [], from: '2026-11-01', to: '2026-11-30' };

function show(expanded: string[], onToggle = vi.fn()) {
  render(
    <MemoryRouter>
      <MantineProvider>
        <AcPerformanceTable
          rows={displayRows(acReport, new Set(expanded))}
          filters={filters}
          onToggle={onToggle}
          isPending={false}
          error={null}
          onRetry={vi.fn()}
        />
      </MantineProvider>
    </MemoryRouter>,
  );
  return onToggle;
}

describe('AC Performance Report table', () => {
  it('shows each book collapsed, and asks to expand it by its coordinator', () => {
    const onToggle = show([]);
    const button = screen.getByRole('button', { name: 'Show the clients of Ada Admin' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Maple')).toBeNull();
    fireEvent.click(button);
    expect(onToggle).toHaveBeenCalledWith('ac-7');
  });

  it('shows an expanded book’s clients, the at-risk reason, and drills down per line', () => {
    show(['ac-7']);
    expect(screen.getByRole('button', { name: 'Hide the clients of Ada Admin' }).getAttribute('aria-expanded')).toBe('true');
    const table = screen.getByRole('table', { name: 'Performance by account coordinator' });
    const risky = within(table).getByText('Bright Smile, Dental').closest('tr');
    if (!risky) throw new Error('no row for the client');
    expect(within(risky).getByText('NPS fell by 15 points (from 55 to 40)')).toBeTruthy();
    expect(within(risky).getByRole('link', { name: 'Open the Performance Report for Bright Smile, Dental' }).getAttribute('href')).toBe(
      '/admin/reports/performance-report?clients=3&from=2026-11-01&to=2026-11-30&groupBy=client&channel=all',
    );
    expect(screen.getByRole('link', { name: 'Open the Performance Report for Ada Admin' }).getAttribute('href')).toBe(
      '/admin/reports/performance-report?clients=3&clients=9&from=2026-11-01&to=2026-11-30&groupBy=client&channel=all',
    );
  });
});
