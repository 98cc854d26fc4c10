import { isCalendarDate } from "../../shared/index.js";

/**
 * Whether `value` is a string of the JSON Schema `format` named (RFC 3339 dates and times, ISO
 * 8601 durations, e-mail addresses, host names, IP addresses, UUIDs, absolute URIs, regular
 * expressions, JSON pointers), as LangChain.js's validator checks them; `undefined` for a format
 * this does not check (any string passes).
 *
 * @example
 * ```ts
 * isFormat("date", "2024-02-30"); // false
 * isFormat("color", "red"); // undefined
 * ```
 */
export function isFormat(format: string, value: string): boolean | undefined {
  const test = FORMATS[format];
  return test === undefined ? undefined : test(value);
}

const FORMATS: Record<string, (value: string) => boolean> = {
  date: isCalendarDate,
  time: isTime,
  "date-time": isDateTime,
  duration: (value) => DURATION.test(value),
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uuid: (value) => UUID.test(value),
  uri: isUri,
  regex: isRegex,
  "json-pointer": (value) => JSON_POINTER.test(value),
  "relative-json-pointer": (value) => RELATIVE_JSON_POINTER.test(value),
};

const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
/** RFC 3339's duration grammar: a year runs on to months and days, an hour to minutes and seconds. */
const DURATION =
  /^P(?:\d+W|(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))$/;
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const JSON_POINTER = /^(?:\/(?:[^~/]|~0|~1)*)*$/;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9]\d*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const LOCAL_PART = /^(?:"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"|[a-z0-9.!#$%&'*+/=?^_`{|}~-]+)$/i;
/** An absolute URI: a scheme, then a non-empty rest of URI characters and `%` escapes. */
const URI = /^[a-z][a-z0-9+.-]*:(?:[a-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9a-f]{2})+$/i;

/** A full time (`hh:mm:ss`, optional fraction, then `Z` or an offset); a leap second only at 23:59 UTC. */
function isTime(value: string): boolean {
  const match = TIME.exec(value);
  if (match === null) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  const offsetHour = Number(match[5] ?? 0);
  const offsetMinute = Number(match[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const sign = match[4] === "+" ? 1 : match[4] === "-" ? -1 : 0;
  const utc = (hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

function isDateTime(value: string): boolean {
  const parts = value.split(/t|\s/i);
  return parts.length === 2 && isCalendarDate(parts[0] as string) && isTime(parts[1] as string);
}

function isHostname(value: string): boolean {
  return value.length >= 1 && value.length <= 253 && value.split(".").every((label) => LABEL.test(label));
}

function isIpv4(value: string): boolean {
  const parts = value.split(".");
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** Eight groups of up to four hex digits, `::` standing for one or more, an IPv4 tail counting as two. */
function isIpv6(value: string): boolean {
  const halves = value.split("::");
  if (halves.length > 2) return false;
  const groups = (text: string) => (text === "" ? [] : text.split(":"));
  const all = halves.flatMap(groups);
  let count = 0;
  for (const [i, group] of all.entries()) {
    if (/^[0-9a-f]{1,4}$/i.test(group)) count += 1;
    else if (i === all.length - 1 && isIpv4(group) && (halves.length === 1 || !value.endsWith("::")))
      count += 2;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

function isEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const host = value.slice(at + 1);
  if (!LOCAL_PART.test(local) || local.length > 64 || host.length === 0 || host.length > 253) return false;
  if (!local.startsWith('"') && (local.startsWith(".") || local.endsWith(".") || local.includes(".."))) {
    return false;
  }
  if (host.startsWith("[") && host.endsWith("]")) {
    const address = host.slice(1, -1);
    return /^ipv6:/i.test(address) ? isIpv6(address.slice(5)) : isIpv4(address);
  }
  return isHostname(host);
}

function isUri(value: string): boolean {
  return URI.test(value);
}

function isRegex(value: string): boolean {
  // `\Z` (end of input in other dialects) has no meaning in JavaScript
  if (/[^\\]\\Z/.test(value)) return false;
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}
