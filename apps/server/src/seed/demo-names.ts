// The demo's names: its clients, their people, places and catalogue; demo.ts writes them.

/** The demo clients: realistic names across the industries the platform serves. */
export const DEMO_CLIENTS = [
  { name: 'Summit Heating & Air', industry: 'home_services', city: 'Denver', state: 'CO', timezone: 'America/Denver' },
  { name: 'Lakeside Honda', industry: 'automotive', city: 'Madison', state: 'WI', timezone: 'America/Chicago' },
  { name: 'Bright Smile Dental Group', industry: 'dental', city: 'Austin', state: 'TX', timezone: 'America/Chicago' },
  { name: 'Harborview Senior Living', industry: 'senior_care', city: 'Seattle', state: 'WA', timezone: 'America/Los_Angeles' },
  { name: 'Keystone Family Medicine', industry: 'healthcare', city: 'Harrisburg', state: 'PA', timezone: 'America/New_York' },
  { name: 'Pioneer Plumbing Co.', industry: 'home_services', city: 'Phoenix', state: 'AZ', timezone: 'America/Phoenix' },
  { name: 'Crescent City Law', industry: 'legal', city: 'New Orleans', state: 'LA', timezone: 'America/Chicago' },
  { name: 'Evergreen Credit Union', industry: 'financial', city: 'Portland', state: 'OR', timezone: 'America/Los_Angeles' },
  { name: 'Maple Street Outfitters', industry: 'retail', city: 'Burlington', state: 'VT', timezone: 'America/New_York' },
  { name: 'Bayside Inn & Suites', industry: 'hospitality', city: 'Monterey', state: 'CA', timezone: 'America/Los_Angeles' },
  { name: 'Northstar Toyota', industry: 'automotive', city: 'Minneapolis', state: 'MN', timezone: 'America/Chicago' },
  { name: 'Clearwater Pest Control', industry: 'home_services', city: 'Tampa', state: 'FL', timezone: 'America/New_York' },
] as const;

export const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Mason',
  'Sophia',
  'Lucas',
  'Mia',
  'Ethan',
  'Harper',
  'Logan',
  'Ella',
  'Caleb',
  'Grace',
  'Owen',
  'Chloe',
  'Isaac',
  'Nora',
  'Wyatt',
];
export const LAST = [
  'Garcia',
  'Nguyen',
  'Patel',
  'Johnson',
  'Kim',
  'Brown',
  'Lopez',
  'Miller',
  'Davis',
  'Wilson',
  'Moore',
  'Taylor',
  'Anderson',
  'Thomas',
  'Martin',
  'Clark',
  'Lewis',
  'Walker',
  'Young',
  'Hall',
];

/** Where the demo clients' locations are: a street for the address, an area for the name. */
export const STREETS = ['Main St', 'Oak Ave', 'Market St', 'Broadway', 'Cedar Rd', 'Lakeview Dr', 'Park Blvd', 'Mill Rd'];
export const AREAS = ['Downtown', 'North', 'South', 'East', 'West', 'Airport', 'Riverside', 'Uptown'];

/** The personnel's job titles. */
export const TITLES = ['Technician', 'Service advisor', 'Sales consultant', 'Office manager', 'Coordinator', 'Specialist'];

/** Products and services, by industry: name, code, category. */
export const CATALOG: Record<string, [string, string, string][]> = {
  home_services: [
    ['AC repair', 'AC-REP', 'Cooling'],
    ['Furnace tune-up', 'FURN-TUNE', 'Heating'],
    ['Drain cleaning', 'DRAIN', 'Plumbing'],
    ['Water heater install', 'WH-INST', 'Plumbing'],
  ],
  automotive: [
    ['Oil change', 'OIL', 'Service'],
    ['Brake service', 'BRAKES', 'Service'],
    ['New vehicle sale', 'NEW-SALE', 'Sales'],
    ['Used vehicle sale', 'USED-SALE', 'Sales'],
  ],
  dental: [
    ['Cleaning', 'CLEAN', 'Hygiene'],
    ['Whitening', 'WHITE', 'Cosmetic'],
    ['Crown', 'CROWN', 'Restorative'],
  ],
  senior_care: [
    ['Assisted living', 'AL', 'Residential'],
    ['Memory care', 'MC', 'Residential'],
    ['Respite stay', 'RESPITE', 'Short stay'],
  ],
  healthcare: [
    ['Annual physical', 'PHYS', 'Primary care'],
    ['Telehealth visit', 'TELE', 'Primary care'],
    ['Lab work', 'LAB', 'Diagnostics'],
  ],
  legal: [
    ['Estate planning', 'ESTATE', 'Consultation'],
    ['Personal injury', 'PI', 'Litigation'],
  ],
  financial: [
    ['Auto loan', 'AUTO-LOAN', 'Lending'],
    ['Mortgage', 'MORTGAGE', 'Lending'],
    ['Checking account', 'CHK', 'Accounts'],
  ],
  retail: [
    ['In-store purchase', 'STORE', 'Sales'],
    ['Online order', 'ONLINE', 'Sales'],
    ['Gear rental', 'RENTAL', 'Rentals'],
  ],
  hospitality: [
    ['Overnight stay', 'STAY', 'Rooms'],
    ['Event booking', 'EVENT', 'Events'],
  ],
};

export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
