import { describe, expect, it } from 'vitest';
import { EmulatorEvents, type EmulatorEvent } from '../../emulator/events.js';

const control = (operationId: string): EmulatorEvent => ({ kind: 'control', at: 0, operationId });

describe('EmulatorEvents', () => {
  it('is inactive until someone listens, and inactive again once they leave', () => {
    const events = new EmulatorEvents();
    expect(events.active).toBe(false);
    const off = events.on(() => {});
    expect(events.active).toBe(true);
    off();
    expect(events.active).toBe(false);
  });

  it('tells every listener, in order', () => {
    const events = new EmulatorEvents();
    const seen: string[] = [];
    events.on((e) => seen.push(`a:${e.kind}`));
    events.on((e) => seen.push(`b:${e.kind}`));
    events.emit(control('reset'));
    expect(seen).toEqual(['a:control', 'b:control']);
  });

  it('drops a listener that throws and keeps telling the others', () => {
    const events = new EmulatorEvents();
    const seen: string[] = [];
    events.on(() => {
      throw new Error('broken listener');
    });
    events.on((e) => seen.push(e.kind));
    expect(() => events.emit(control('reset'))).not.toThrow();
    events.emit(control('reset'));
    expect(seen).toEqual(['control', 'control']);
  });
});
