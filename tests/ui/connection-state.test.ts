import { describe, expect, it } from 'vitest';
import { connectionState } from '../../contract/connection-state.ts';

const now = new Date('2026-11-22T12:00:00.000Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const conn = (
  connectedDate: string | null,
  lastPingedDate: string | null,
  disconnectedDate: string | null,
) => ({
  connectedDate,
  lastPingedDate,
  disconnectedDate,
});

describe('connection state', () => {
  it('is connected within 2 minutes of the last connect or ping', () => {
    expect(connectionState(conn(ago(1), null, null), now)).toBe('Connected');
    expect(connectionState(conn(ago(30), ago(1.5), null), now)).toBe('Connected');
  });

  it('is away within 5 minutes, disconnected when older', () => {
    expect(connectionState(conn(ago(30), ago(4), null), now)).toBe('Away');
    expect(connectionState(conn(ago(30), ago(6), null), now)).toBe('Disconnected');
  });

  it('is disconnected when the disconnect is later than connect and ping', () => {
    expect(connectionState(conn(ago(3), ago(1), ago(0.5)), now)).toBe('Disconnected');
    expect(connectionState(conn(ago(1), null, ago(3)), now)).toBe('Connected');
  });

  it('is away without a connect date', () => {
    expect(connectionState(conn(null, ago(1), null), now)).toBe('Away');
  });
});
