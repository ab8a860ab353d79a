import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const response = (status: string, code: string, message: string): string => {
  const body = JSON.stringify({ error: { code, message } });
  return [
    `HTTP/1.1 ${status}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
};

/**
 * Node rejects requests whose headers exceed `maxHeaderSize` (16 KB) before any handler runs, with
 * a bare 431 and no body. Answer in the contract's error shape instead. (In AWS, API Gateway
 * enforces its own header limits before the Lambda; see docs/api.md.)
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      socket.end(
        response('431 Request Header Fields Too Large', 'headers_too_large', 'Request headers are too large'),
      );
    } else {
      socket.end(response('400 Bad Request', 'validation_error', 'Malformed HTTP request'));
    }
  });
}
