// The live stream (GET /exchanges/stream) read with fetch and a ReadableStream: EventSource
// cannot send the Authorization header, and the token never goes into a URL.
import { headers, onUnauthorized } from './api.js';

/**
 * Streams batches after `after` to `onBatch({exchanges, skipped, newest})`; reconnects after
 * a drop from the newest number seen. `onState` hears 'live', 'reconnecting' or 'stopped'.
 */
export function openStream(after, onBatch, onState) {
  let cursor = after;
  let stopped = false;
  let controller = null;
  let retry = null;

  async function run() {
    controller = new AbortController();
    try {
      const response = await fetch(`/exchanges/stream?after=${cursor}`, {
        headers: headers(false), cache: 'no-store', credentials: 'omit', signal: controller.signal,
      });
      if (response.status === 401) { stopped = true; onState('stopped'); onUnauthorized(); return; }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      onState('live');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          dispatch(block);
        }
      }
    } catch (error) {
      if (stopped) return;
    }
    if (!stopped) {
      onState('reconnecting');
      retry = setTimeout(run, 1000);
    }
  }

  function dispatch(block) {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (event !== 'exchanges' || !data) return;
    const batch = JSON.parse(data);
    cursor = Math.max(cursor, batch.newest || 0);
    onBatch(batch);
  }

  run();
  return {
    close() {
      stopped = true;
      clearTimeout(retry);
      if (controller) controller.abort();
      onState('stopped');
    },
  };
}
