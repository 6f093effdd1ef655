import type { ComponentType } from 'react';

export type NavGroup = 'Clients' | 'Surveys' | 'Reputation' | 'Services' | 'Tools' | 'Logging' | 'Reports';

export type ScreenRoute = {
  path: string;
  label: string;
  group: NavGroup;
  /** Each screen is its own chunk, loaded when first visited (docs/overview.md, The shell). */
  load: () => Promise<{ default: ComponentType }>;
};

export const NAV_GROUPS: readonly NavGroup[] = ['Clients', 'Surveys', 'Reputation', 'Services', 'Tools', 'Logging', 'Reports'];

/** The route table (docs/overview.md, The shell), in menu order within each group. */
export const SCREEN_ROUTES: readonly ScreenRoute[] = [
  { path: '/', label: 'Client Manager', group: 'Clients', load: () => import('../features/clients/client-manager-page.tsx') },
  { path: '/admin/surveys', label: 'Surveys', group: 'Surveys', load: () => import('../features/surveys/surveys-page.tsx') },
  {
    path: '/admin/survey-platform',
    label: 'Survey Platform',
    group: 'Surveys',
    load: () => import('../features/surveys/survey-platform-page.tsx'),
  },
  {
    path: '/admin/survey-processing',
    label: 'Survey Processing',
    group: 'Surveys',
    load: () => import('../features/surveys/survey-processing-page.tsx'),
  },
  {
    path: '/admin/survey-manager',
    label: 'Survey Manager',
    group: 'Surveys',
    load: () => import('../features/surveys/survey-manager-page.tsx'),
  },
  {
    path: '/admin/survey-alerts-unsent-events',
    label: 'Survey Alerts Unsent events',
    group: 'Surveys',
    load: () => import('../features/surveys/survey-alerts-unsent-events-page.tsx'),
  },
  {
    path: '/admin/survey-alert-settings',
    label: 'Survey Alert Settings',
    group: 'Surveys',
    load: () => import('../features/surveys/survey-alert-settings-page.tsx'),
  },
  {
    path: '/admin/surveys-admin',
    label: 'Survey Admin',
    group: 'Surveys',
    load: () => import('../features/surveys/survey-admin-page.tsx'),
  },
  {
    path: '/admin/reputation-panel',
    label: 'Reputation Panel',
    group: 'Reputation',
    load: () => import('../features/reputation/reputation-panel-page.tsx'),
  },
  {
    path: '/admin/review-alert-settings',
    label: 'Review Alert Settings',
    group: 'Reputation',
    load: () => import('../features/reputation/review-alert-settings-page.tsx'),
  },
  { path: '/admin/location', label: 'Locations', group: 'Services', load: () => import('../features/services/locations-page.tsx') },
  { path: '/admin/personnel', label: 'Personnel', group: 'Services', load: () => import('../features/services/personnel-page.tsx') },
  { path: '/admin/product', label: 'Product', group: 'Services', load: () => import('../features/services/product-page.tsx') },
  {
    path: '/admin/referral-source',
    label: 'Referral Source',
    group: 'Services',
    load: () => import('../features/services/referral-source-page.tsx'),
  },
  {
    path: '/admin/merge-personnel',
    label: 'Merge Personnel Data',
    group: 'Services',
    load: () => import('../features/services/merge-personnel-page.tsx'),
  },
  {
    path: '/admin/api-token-generation',
    label: 'API Token Generation',
    group: 'Tools',
    load: () => import('../features/tools/api-token-generation-page.tsx'),
  },
  { path: '/admin/api-managers', label: 'API Managers', group: 'Tools', load: () => import('../features/tools/api-managers-page.tsx') },
  {
    path: '/admin/testimonials-tool',
    label: 'Testimonials Tool',
    group: 'Tools',
    load: () => import('../features/tools/testimonials-tool-page.tsx'),
  },
  { path: '/admin/listings-tool', label: 'Listings Tool', group: 'Tools', load: () => import('../features/tools/listings-tool-page.tsx') },
  { path: '/admin/sms-text', label: 'SMS Text', group: 'Tools', load: () => import('../features/tools/sms-text-page.tsx') },
  { path: '/admin/system/logs', label: 'System Logs', group: 'Logging', load: () => import('../features/logging/system-logs-page.tsx') },
  {
    path: '/admin/notifications/logs',
    label: 'Tracking Logs',
    group: 'Logging',
    load: () => import('../features/logging/tracking-logs-page.tsx'),
  },
  {
    path: '/admin/survey-admin/logs',
    label: 'Survey Manager Logs',
    group: 'Logging',
    load: () => import('../features/logging/survey-manager-logs-page.tsx'),
  },
  { path: '/admin/ses/logs', label: 'SES Logs', group: 'Logging', load: () => import('../features/logging/ses-logs-page.tsx') },
  { path: '/admin/ses/bounce', label: 'SES Bounce', group: 'Logging', load: () => import('../features/logging/ses-bounce-page.tsx') },
  {
    path: '/admin/reports/performance-report',
    label: 'Performance Report',
    group: 'Reports',
    load: () => import('../features/reports/performance-report-page.tsx'),
  },
  {
    path: '/admin/reports/review-alerts-report',
    label: 'Review Alerts Report',
    group: 'Reports',
    load: () => import('../features/reports/review-alerts-report-page.tsx'),
  },
  {
    path: '/admin/reports/ac-performance-report',
    label: 'AC Performance Report',
    group: 'Reports',
    load: () => import('../features/reports/ac-performance-report-page.tsx'),
  },
  {
    path: '/admin/reports/scheduled-reports',
    label: 'Scheduled reports',
    group: 'Reports',
    load: () => import('../features/reports/scheduled-reports-page.tsx'),
  },
];

export function routesOf(group: NavGroup): ScreenRoute[] {
  return SCREEN_ROUTES.filter((r) => r.group === group);
}
