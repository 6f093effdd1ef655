import { describe, expect, it } from 'vitest';
import { locationResource } from '../resources/locations.ts';
import { productResource } from '../resources/products.ts';
import { cardOf } from './card.ts';

describe('cardOf (what a row shows as a card on a phone)', () => {
  it('takes the name column, the status as its badge and the next two default columns', () => {
    const columns = [
      { key: 'id', label: 'ID', defaultVisible: false },
      { key: 'name', label: 'Name' },
      { key: 'code', label: 'Code' },
      { key: 'notes', label: 'Notes', defaultVisible: false },
      { key: 'city', label: 'City' },
      { key: 'phone', label: 'Phone' },
      { key: 'status', label: 'Status' },
    ];
    expect(cardOf(columns)).toEqual({ title: 'name', status: 'status', facts: ['code', 'city'] });
  });

  it('without a name column, the first column shown by default is the title', () => {
    expect(
      cardOf([
        { key: 'id', label: 'ID', defaultVisible: false },
        { key: 'at', label: 'Time' },
        { key: 'level', label: 'Level' },
      ]),
    ).toEqual({
      title: 'at',
      facts: ['level'],
    });
  });

  it("a definition's own card wins, and every definition has one", () => {
    expect(locationResource.card).toEqual({ title: 'locationname', status: 'status', facts: ['client_name', 'city_state', 'phone'] });
    expect(productResource.card.title).toBe('name');
    expect(productResource.card.facts.length).toBeGreaterThan(0);
  });

  it('never repeats the status badge as a fact, even when a definition names it', () => {
    const columns = [
      { key: 'who', label: 'Customer' },
      { key: 'at', label: 'Invited at' },
      { key: 'status', label: 'Status' },
    ];
    expect(cardOf(columns, { title: 'who', facts: ['at', 'status'] })).toEqual({ title: 'who', status: 'status', facts: ['at'] });
  });
});
