/**
 * The next token on the wire. The scheduler (Go's net/http) writes the next token header (`X-Svc-Nexttoken`, `X-Nomad-Nexttoken`) as the token's
 * raw UTF-8 bytes, and so does this server: the header's value is the latin1 string of those bytes
 * (Node writes a header of a buffered body byte for character), so that a client decoding the header as
 * UTF-8 (Go) reads the token itself, and a client decoding it as latin1 (fetch, undici, Node's http)
 * reads one character per byte. `next_token` accepts both back (`tokenFromRequest`).
 *
 * A token no header can carry as bytes, or that would read back ambiguously, is sent escaped instead:
 * `~` followed by the token with every UTF-16 unit outside printable ASCII, and `%`, written `%XX`
 * (below U+0100) or `%uXXXX`. That is a token holding a control character (U+0000–U+001F, U+007F: Node
 * refuses them in a header, and CR/LF would end it), a lone surrogate (no UTF-8 for it), a leading or
 * trailing space (clients trim header values), a leading `~`, or one whose latin1 reading is valid UTF-8
 * (`Ã©`: it would read back as `é`). Such a header is plain ASCII: every client reads the same text.
 */

/** The first character of an escaped token. Namespaces (`[a-zA-Z0-9-]`) and create indexes never begin with it. */
const ESCAPED = "~";

const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The UTF-8 text whose bytes `text` holds one per character, or undefined when it holds other characters or no valid UTF-8 beyond ASCII. */
function fromLatin1Bytes(text: string): string | undefined {
  if (!/[\u0080-\u00ff]/.test(text) || /[^\u0000-\u00ff]/.test(text)) return undefined;
  try {
    return utf8.decode(Buffer.from(text, "latin1"));
  } catch {
    return undefined;
  }
}

function escape(token: string): string {
  let out = ESCAPED;
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i);
    if (unit > 0x20 && unit < 0x7f && unit !== 0x25) out += token[i];
    else if (unit < 0x100) out += `%${unit.toString(16).toUpperCase().padStart(2, "0")}`;
    else out += `%u${unit.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return out;
}

/** The value of the next token header for a token (see the module's comment). */
export function tokenHeader(token: string): string {
  const plain =
    !CONTROL.test(token) &&
    !LONE_SURROGATE.test(token) &&
    !token.startsWith(ESCAPED) &&
    !token.startsWith(" ") &&
    !token.endsWith(" ") &&
    fromLatin1Bytes(token) === undefined;
  return plain ? Buffer.from(token, "utf8").toString("latin1") : escape(token);
}

/**
 * The token a `next_token` names: an escaped token (`~…` with well-formed escapes) unescaped; text of
 * characters up to U+00FF whose bytes are UTF-8 beyond ASCII (the header as a latin1 client read it)
 * decoded as UTF-8; anything else as it is. Whatever the header gave, read either way, comes back as the
 * token; any other text is a seek position as before.
 */
export function tokenFromRequest(text: string): string {
  if (text.startsWith(ESCAPED) && !/%(?!u[0-9A-Fa-f]{4}|[0-9A-Fa-f]{2})/.test(text)) {
    return text.slice(1).replace(/%u([0-9A-Fa-f]{4})|%([0-9A-Fa-f]{2})/g, (_, u: string | undefined, x: string | undefined) => String.fromCharCode(Number.parseInt(u ?? x ?? "", 16)));
  }
  return fromLatin1Bytes(text) ?? text;
}
