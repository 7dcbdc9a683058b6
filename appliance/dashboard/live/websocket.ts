/**
 * `/ws` on hyper-express: the upgrade takes note of the credentials, the socket callbacks feed
 * the hub.
 *
 * Credentials come, in this order, from `?token=` (JWT or API key), from the request headers the
 * REST API reads (`Authorization: Bearer`, the API key header), or — for browsers that can set
 * neither and should not put tokens in URLs — from a first `{type:"auth",token}` message.
 *
 * Every upgrade is accepted synchronously and the credentials are checked once the socket is
 * open; bad ones close it with 4401. Checking first and upgrading after the await is what uWS
 * calls an asynchronous upgrade, and the uWS 20.x build we run closes such sockets at random
 * right after their open event (uWebSockets issue #1928, fixed upstream in PR #1929; seen here
 * on about one connection in a few hundred). A 401 on the upgrade would not help browsers
 * anyway: they report a refused upgrade as a bare 1006, while 4401 says what is wrong.
 *
 * uWS's own idle timeout is off: its granularity is seconds in steps of 4, and it cannot re-check
 * credentials; the hub's heartbeat does both jobs.
 *
 * A message over uWS's payload limit makes uWS cut the TCP connection without a close frame (the
 * client sees 1006, "abnormal closure"). So uWS's limit is four times the documented one, and a
 * message between the two is closed here with 1009 and a reason. Only a frame (or fragments) past
 * uWS's limit is still cut off: uWS refuses it from its header, before buffering its payload, which
 * bounds what an unauthenticated connection can make the process hold.
 */
import type { Request, Server, Websocket } from 'hyper-express';
import type { Authenticator } from '../http/route.js';
import type { CredentialCheck, LiveHub } from './hub.js';
import { MAX_CLIENT_MESSAGE_BYTES } from './protocol.js';

export const WS_PATH = '/ws';
/** What uWS buffers of one message before it drops the connection (see above). */
export const UWS_MAX_PAYLOAD_BYTES = 4 * MAX_CLIENT_MESSAGE_BYTES;
/** Headers that carry credentials for the REST API, so their presence means "authenticate me with these". */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key'];

type UpgradeContext = { check: CredentialCheck | null };

/** How to check the credentials of the upgrade request; null when it carries none. */
function credentialCheck(req: Request, auth: Authenticator): CredentialCheck | null {
  const token = req.query_parameters.token;
  if (token !== undefined) return () => (token === '' ? Promise.resolve(null) : auth.authenticateToken(token));
  const headers: Record<string, string> = { ...req.headers };
  if (!CREDENTIAL_HEADERS.some((name) => headers[name] !== undefined)) return null;
  return () => auth.authenticate(headers);
}

export function installLiveSocket(app: Server, hub: LiveHub, auth: Authenticator): void {
  app.upgrade(WS_PATH, (req, res) => {
    const context: UpgradeContext = { check: credentialCheck(req, auth) };
    res.upgrade(context);
  });

  app.ws(
    WS_PATH,
    {
      idle_timeout: 0,
      // Bytes, so the limit is counted in bytes as documented (a string's length counts UTF-16 units).
      message_type: 'ArrayBuffer',
      max_payload_length: UWS_MAX_PAYLOAD_BYTES,
      // Above the hub's own limit, so uWS never silently drops a message the hub meant to send.
      max_backpressure: hub.options.maxBufferedBytes * 2,
    },
    (ws: Websocket) => {
      const { check } = ws.context as unknown as UpgradeContext;
      const client = hub.connect(ws, check);
      ws.on('message', (message: ArrayBuffer) => {
        if (message.byteLength > MAX_CLIENT_MESSAGE_BYTES) hub.tooLarge(client, message.byteLength);
        else hub.receive(client, Buffer.from(message).toString('utf8'));
      });
      ws.on('pong', () => hub.alive(client));
      ws.on('ping', () => hub.alive(client));
      ws.on('close', () => hub.disconnect(client));
    },
  );
}
