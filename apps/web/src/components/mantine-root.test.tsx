import { Button, Loader } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MantineRoot } from './mantine-root.tsx';

describe('MantineRoot', () => {
  // axe refuses an aria-label on a span without a role (aria-prohibited-attr): the Listings Tool's
  // "Refreshing" spinner failed the accessibility check whenever a scan was polling.
  it('makes a named spinner a progress bar that carries its name', () => {
    render(
      <MantineRoot>
        <Loader aria-label="Refreshing" />
      </MantineRoot>,
    );
    expect(screen.getByRole('progressbar', { name: 'Refreshing' })).toBeTruthy();
  });

  it("leaves a busy button's own spinner hidden, the button alone named", () => {
    render(
      <MantineRoot>
        <Button loading>Save changes</Button>
      </MantineRoot>,
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeTruthy();
  });
});
