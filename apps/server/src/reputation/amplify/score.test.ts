import { describe, expect, it } from 'vitest';
import { type Candidate, commentLikeness, jaroWinkler, nameKey, scoreMatch, WEIGHTS } from './score.ts';

const at = (iso: string) => new Date(iso);

describe('jaroWinkler', () => {
  it('gives the textbook values', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 4);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.8133, 4);
  });
  it('is 1 for equal strings, 0 for nothing in common or an empty one', () => {
    expect(jaroWinkler('dana l', 'dana l')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'dana')).toBe(0);
    expect(jaroWinkler('', '')).toBe(0);
  });
  it('is symmetric', () => {
    expect(jaroWinkler('kathy l', 'cathy l')).toBeCloseTo(jaroWinkler('cathy l', 'kathy l'), 10);
  });
});

describe('nameKey', () => {
  it('keeps the first name and the last initial', () => {
    expect(nameKey('Dana Lee')).toBe('dana l');
    expect(nameKey('  dana   L. ')).toBe('dana l');
    expect(nameKey('Dana Maria Lee')).toBe('dana l');
    expect(nameKey('Dana')).toBe('dana');
    expect(nameKey('José Ñúñez')).toBe('jose n');
    expect(nameKey('')).toBe('');
  });
});

describe('commentLikeness', () => {
  it('is the share of common words', () => {
    expect(commentLikeness('Great service from Pete', 'Pete gave great service!')).toBeCloseTo(3 / 5, 5);
    expect(commentLikeness('Great service', null)).toBe(0);
    expect(commentLikeness('ok', 'ok')).toBe(0);
    expect(commentLikeness('Quick oil change', 'Terrible wait')).toBe(0);
  });
});

describe('scoreMatch', () => {
  const base: Candidate = { customerName: 'Dana Lee', invitedAt: at('2026-04-01T10:00:00Z'), clickedAt: null, comment: null };
  const review = { authorName: 'Dana L.', createdAt: at('2026-04-01T11:00:00Z'), text: null };

  it('a click, the same name and a review within the hour is a sure match', () => {
    const s = scoreMatch({ ...base, clickedAt: at('2026-04-01T10:05:00Z') }, review);
    expect(s.reasons).toMatchObject({ click: WEIGHTS.click, name: WEIGHTS.name, time: WEIGHTS.time, comment: 0 });
    expect(s.score).toBe(90);
    expect(s.score).toBeGreaterThanOrEqual(70);
  });

  it('the same name alone is at most a suggestion (names are weak evidence)', () => {
    const s = scoreMatch(base, { ...review, text: null });
    expect(s.score).toBe(WEIGHTS.name + WEIGHTS.time);
    expect(s.score).toBeLessThan(70);
    expect(s.score).toBeGreaterThanOrEqual(40);
  });

  it('a click without a name match is a suggestion, with a nickname still counting a little', () => {
    const clicked = { ...base, clickedAt: at('2026-04-01T10:05:00Z') };
    const stranger = scoreMatch(clicked, { ...review, authorName: 'Zed Q' });
    expect(stranger.reasons.name).toBe(0);
    expect(stranger.score).toBe(60);
    const nick = scoreMatch({ ...clicked, customerName: 'Kathy Lee' }, { ...review, authorName: 'Cathy L' });
    expect(nick.reasons.name).toBeGreaterThan(0);
    expect(nick.score).toBeGreaterThanOrEqual(70);
  });

  it('a click after the review was written does not count', () => {
    const s = scoreMatch({ ...base, clickedAt: at('2026-04-01T12:00:00Z') }, review);
    expect(s.reasons.click).toBe(0);
  });

  it('time points fall with the delay, and are none outside the window', () => {
    const after = (hours: number) =>
      scoreMatch(base, { ...review, createdAt: new Date(base.invitedAt.getTime() + hours * 3_600_000) }).reasons.time;
    expect([after(1), after(20), after(60), after(200), after(24 * 15), after(-1)]).toEqual([15, 10, 5, 2, 0, 0]);
  });

  it('comment likeness adds up to its weight', () => {
    const s = scoreMatch({ ...base, comment: 'Pete fixed the brakes fast' }, { ...review, text: 'Pete fixed the brakes fast, thanks' });
    expect(s.reasons.comment).toBe(WEIGHTS.comment);
    const none = scoreMatch({ ...base, comment: 'Pete fixed the brakes fast' }, { ...review, text: 'Rude staff' });
    expect(none.reasons.comment).toBe(0);
  });

  it('a different person, weeks apart, scores nothing', () => {
    expect(scoreMatch(base, { authorName: 'Bob Smith', createdAt: at('2026-05-01T00:00:00Z'), text: 'meh' }).score).toBe(0);
  });
});
