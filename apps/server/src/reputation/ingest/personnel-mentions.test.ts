import { describe, expect, it } from 'vitest';
import { indexOf, mentionsIn, type Person } from './personnel-mentions.ts';

const person = (id: number, firstName: string, lastName: string, extra: Partial<Person> = {}): Person => ({
  id,
  clientId: 1,
  firstName,
  lastName,
  displayName: null,
  aliases: [],
  locationIds: ['a'],
  ...extra,
});

const staff = [
  person(1, 'María', 'López', { aliases: ['Mari'] }),
  person(2, 'Tom', 'Baker', { displayName: 'Tommy B.' }),
  person(3, 'Will', 'Carter'),
  person(4, 'Sam', 'Ortiz'),
  person(5, 'Sam', 'Reed'),
  person(6, 'Mary-Jane', "O'Neil"),
  person(7, 'J', 'K', { aliases: ['J'] }),
];
const index = indexOf(staff);

describe('personnel named in a review', () => {
  it('finds a full name, a display name and an alias as whole words, case and accents aside', () => {
    expect(mentionsIn('maria lopez fixed our AC in an hour.', index)).toEqual([1]);
    expect(mentionsIn('Ask for MARI! And Tommy B. was lovely', index)).toEqual([1, 2]);
    expect(mentionsIn("Mary-Jane O'Neil rocks", index)).toEqual([6]);
    // Part of a longer word is not the name.
    expect(mentionsIn('Tommy Bakerson and Marianne came', index)).toEqual([]);
  });

  it('counts a first name alone only when written as a name and no one else of the location shares it', () => {
    expect(mentionsIn('Tom was on time', index)).toEqual([2]);
    expect(mentionsIn('Great work. Will explained everything', index)).toEqual([3]);
    expect(mentionsIn('we will come back', index)).toEqual([]);
    // Two people named Sam: "Sam" alone names neither; the full name names one.
    expect(mentionsIn('Sam was great', index)).toEqual([]);
    expect(mentionsIn('Sam Reed was great', index)).toEqual([5]);
  });

  it('ignores names too short to tell from a letter, and empty texts', () => {
    expect(mentionsIn('Plan J was fine', index)).toEqual([]);
    expect(mentionsIn(null, index)).toEqual([]);
    expect(mentionsIn('', index)).toEqual([]);
    expect(mentionsIn('Maria Lopez', indexOf([]))).toEqual([]);
  });

  it('names each person once, ids ascending', () => {
    expect(mentionsIn('Will, Tom Baker and Tom again; then Will Carter', index)).toEqual([2, 3]);
  });
});
