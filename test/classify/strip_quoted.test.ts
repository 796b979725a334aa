import { describe, expect, it } from 'vitest';
import { splitQuoted, stripQuoted } from '../../lib/classify/strip_quoted';

const PITCH = 'Hi Anna,\nWould you be open to a 15-minute call next week? Happy to send a demo.\nSam';
const quoted = (s: string) => s.split('\n').map((l) => `> ${l}`).join('\n');

describe('stripQuoted', () => {
  it.each([
    ['Gmail (en)', `Yes, Tuesday works.\n\nOn Tue, Mar 4, 2025 at 9:12 AM Sam Carter <sam@growthpilot.io> wrote:\n\n${quoted(PITCH)}`],
    ['Gmail wrapped over two lines', `Yes, Tuesday works.\n\nOn Tue, Mar 4, 2025 at 9:12 AM Sam Carter <\nsam@growthpilot.io> wrote:\n\n${quoted(PITCH)}`],
    ['Gmail (de)', `Yes, Tuesday works.\n\nAm Di., 4. März 2025 um 09:12 Uhr schrieb Sam Carter <sam@growthpilot.io>:\n\n${quoted(PITCH)}`],
    ['Gmail (fr)', `Yes, Tuesday works.\n\nLe mar. 4 mars 2025 à 09:12, Sam Carter <sam@growthpilot.io> a écrit :\n\n${quoted(PITCH)}`],
    ['Gmail (nl)', `Yes, Tuesday works.\n\nOp di 4 mrt 2025 om 09:12 schreef Sam Carter <sam@growthpilot.io>:\n\n${quoted(PITCH)}`],
    ['Gmail (es)', `Yes, Tuesday works.\n\nEl mar, 4 mar 2025 a las 9:12, Sam Carter (<sam@growthpilot.io>) escribió:\n\n${quoted(PITCH)}`],
    ['attribution without "On"', `Yes, Tuesday works.\n\nSam Carter <sam@growthpilot.io> wrote:\n${quoted(PITCH)}`],
    ['bare > quote', `Yes, Tuesday works.\n\n${quoted(PITCH)}`],
    ['Outlook (en)', `Yes, Tuesday works.\n\n________________________________\nFrom: Sam Carter <sam@growthpilot.io>\nSent: Tuesday, March 4, 2025 9:12 AM\nTo: Anna <anna@acme.com>\nSubject: Quick question\n\n${PITCH}`],
    ['Outlook (de)', `Yes, Tuesday works.\n\nVon: Sam Carter <sam@growthpilot.io>\nGesendet: Dienstag, 4. März 2025 09:12\nAn: Anna <anna@acme.de>\nBetreff: Kurze Frage\n\n${PITCH}`],
    ['Outlook (fr)', `Yes, Tuesday works.\n\nDe : Sam Carter <sam@growthpilot.io>\nEnvoyé : mardi 4 mars 2025 09:12\nÀ : Anna <anna@acme.fr>\nObjet : Question rapide\n\n${PITCH}`],
    ['Outlook (nl)', `Yes, Tuesday works.\n\nVan: Sam Carter <sam@growthpilot.io>\nVerzonden: dinsdag 4 maart 2025 09:12\nAan: Anna <anna@acme.nl>\nOnderwerp: Korte vraag\n\n${PITCH}`],
    ['Outlook (es)', `Yes, Tuesday works.\n\nDe: Sam Carter <sam@growthpilot.io>\nEnviado: martes, 4 de marzo de 2025 9:12\nPara: Anna <anna@acme.es>\nAsunto: Pregunta rápida\n\n${PITCH}`],
    ['Outlook with bold headers', `Yes, Tuesday works.\n\n*From:* Sam Carter <sam@growthpilot.io>\n*Sent:* Tuesday, March 4, 2025 9:12 AM\n*To:* Anna\n*Subject:* Quick question\n\n${PITCH}`],
    ['-----Original Message-----', `Yes, Tuesday works.\n\n-----Original Message-----\nFrom: Sam Carter [mailto:sam@growthpilot.io]\nSent: Tuesday, March 04, 2025 9:12 AM\n\n${PITCH}`],
    ['-----Ursprüngliche Nachricht-----', `Yes, Tuesday works.\n\n-----Ursprüngliche Nachricht-----\nVon: Sam\n\n${PITCH}`],
    ['Gmail forward', `Yes, Tuesday works.\n\n---------- Forwarded message ---------\nFrom: Sam Carter <sam@growthpilot.io>\nDate: Tue, Mar 4, 2025\n\n${PITCH}`],
    ['Apple forward', `Yes, Tuesday works.\n\nBegin forwarded message:\n\nFrom: Sam Carter <sam@growthpilot.io>\n\n${PITCH}`],
    ['signature "-- "', `Yes, Tuesday works.\n\n-- \nAnna Klein\nVP Sales | Book a meeting: calendly.com/anna`],
    ['signature "--" (trimmed by client)', `Yes, Tuesday works.\n--\nAnna Klein`],
    ['Sent from my iPhone', `Yes, Tuesday works.\n\nSent from my iPhone`],
    ['iPhone footer + Apple quote', `Yes, Tuesday works.\n\nSent from my iPhone\n\n> On 4 Mar 2025, at 09:12, Sam Carter <sam@growthpilot.io> wrote:\n>\n${quoted(PITCH)}`],
    ['Von meinem iPhone gesendet', `Yes, Tuesday works.\n\nVon meinem iPhone gesendet`],
    ['Envoyé de mon iPhone', `Yes, Tuesday works.\nEnvoyé de mon iPhone`],
    ['Verstuurd vanaf mijn iPhone', `Yes, Tuesday works.\nVerstuurd vanaf mijn iPhone`],
    ['Enviado desde mi iPhone', `Yes, Tuesday works.\nEnviado desde mi iPhone`],
    ['Get Outlook for iOS', `Yes, Tuesday works.\n\nGet Outlook for iOS`],
    ['CRLF line endings', `Yes, Tuesday works.\r\n\r\nOn Tue, Mar 4, 2025 at 9:12 AM Sam <sam@growthpilot.io> wrote:\r\n> call?`],
    ['Apple Mail (nl)', `Yes, Tuesday works.\n\nOp 4 mrt. 2025 om 09:12 heeft Sam Carter <sam@growthpilot.io> het volgende geschreven:\n\n${quoted(PITCH)}`],
    ['Yahoo (de)', `Yes, Tuesday works.\n\nAm Dienstag, 4. März 2025 um 09:12:00 MEZ hat Sam Carter <sam@growthpilot.io> Folgendes geschrieben:\n\n${PITCH}`],
    ['Yahoo (nl)', `Yes, Tuesday works.\n\nOp dinsdag 4 maart 2025 om 09:12:00 CET schreef Sam Carter <sam@growthpilot.io>:\n\n${PITCH}`],
    ['Yahoo (es)', `Yes, Tuesday works.\n\nEl martes, 4 de marzo de 2025, 09:12:00 CET, Sam Carter <sam@growthpilot.io> escribió:\n\n${PITCH}`],
    ['Thunderbird (fr)', `Yes, Tuesday works.\n\nLe 04/03/2025 à 09:12, Sam Carter a écrit :\n${quoted(PITCH)}`],
    ['Outlook (fr) with non-breaking spaces', `Yes, Tuesday works.\n\nDe\u00a0: Sam Carter <sam@growthpilot.io>\nEnvoyé\u00a0: mardi 4 mars 2025 09:12\nÀ\u00a0: Anna\nObjet\u00a0: Question rapide\n\n${PITCH}`],
    ['Télécharger Outlook pour iOS', `Yes, Tuesday works.\n\nTélécharger Outlook pour iOS`],
    ['Obtener Outlook para Android', `Yes, Tuesday works.\n\nObtener Outlook para Android`],
    ['Outlook für iOS herunterladen', `Yes, Tuesday works.\n\nOutlook für iOS herunterladen`],
    ['Outlook voor Android downloaden', `Yes, Tuesday works.\n\nOutlook voor Android downloaden`],
    ['Verzonden vanaf Outlook', `Yes, Tuesday works.\nVerzonden vanaf Outlook voor iOS`],
    ['Enviado desde Outlook', `Yes, Tuesday works.\nEnviado desde Outlook para Android`],
  ])('%s', (_name, body) => {
    expect(stripQuoted(body)).toBe('Yes, Tuesday works.');
  });

  it('keeps the whole reply when nothing is quoted, trimming trailing whitespace', () => {
    expect(stripQuoted('Hi Sam,\n\nSounds good.   \nBest,\nMark\n\n\n')).toBe('Hi Sam,\n\nSounds good.\nBest,\nMark');
  });

  it('keeps inline answers between quoted lines', () => {
    const body = '> Would Tuesday work?\nYes, 2pm.\n> Should I invite your CTO?\nNo need.';
    expect(stripQuoted(body)).toBe('Yes, 2pm.\nNo need.');
  });

  it('does not treat a lone "From:" in prose as a header block', () => {
    const body = 'From: my side this is fine.\nLet us talk Tuesday.';
    expect(stripQuoted(body)).toBe(body);
  });

  it('does not cut at an ordinary sentence starting with "On"', () => {
    const body = 'On Tuesday I am free after 2pm.\nTalk then.';
    expect(stripQuoted(body)).toBe(body);
  });

  it('falls back to the trimmed original when everything is quoted', () => {
    const body = `  \n${quoted(PITCH)}\n`;
    expect(stripQuoted(body)).toBe(body.trim());
    expect(stripQuoted('On Tue, Mar 4, 2025 Sam <sam@x.io> wrote:\n> hi')).toBe('On Tue, Mar 4, 2025 Sam <sam@x.io> wrote:\n> hi');
  });

  it('does not cut at a German or Dutch sentence that merely mentions writing', () => {
    const de = 'Am Montag habe ich Ihnen geschrieben:\nwir sind interessiert.';
    expect(stripQuoted(de)).toBe(de);
    const nl = 'Op maandag heb ik het volgende geschreven:\nwij zijn geïnteresseerd.';
    expect(stripQuoted(nl)).toBe(nl);
  });

  it('splitQuoted: the own text without the fallback, and whether anything was cut', () => {
    expect(splitQuoted(`Yes.\n\n${quoted(PITCH)}`)).toEqual({ own: 'Yes.', quoted: true });
    expect(splitQuoted('Yes.\n\nSent from my iPhone')).toEqual({ own: 'Yes.', quoted: true });
    expect(splitQuoted('Yes, Tuesday.\nAnna\n')).toEqual({ own: 'Yes, Tuesday.\nAnna', quoted: false });
    expect(splitQuoted(quoted(PITCH))).toEqual({ own: '', quoted: true });
    expect(splitQuoted('')).toEqual({ own: '', quoted: false });
  });

  it('returns an empty string for an empty body', () => {
    expect(stripQuoted('')).toBe('');
    expect(stripQuoted('   \n ')).toBe('');
  });
});
