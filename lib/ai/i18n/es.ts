// Spanish drafts. "usted" unless the prospect wrote "tú" (or the tone is casual). Dates read "el martes,
// 24 de noviembre a las 14:00": Intl's day with the article Spanish puts before it.

import { formatDay, formatSlot, joinAnd, joinOr } from '../dates';
import type { Register } from '../lang';
import type { Per } from '../price';
import { cap, type Phrases } from './phrases';

const PER: Record<Per, string> = { month: ' al mes', year: ' al año', user: ' por usuario', meeting: ' por reunión', lead: ' por lead', hour: ' por hora' };

export function es(register: Register): Phrases {
  const f = register === 'formal';
  const v = (formal: string, informal: string) => (f ? formal : informal);
  const list = (xs: string[]) => joinAnd(xs, 'es');
  const yourTime = v('(su hora local)', '(tu hora local)');
  const le = v('le', 'te');
  return {
    lang: 'es',
    register,
    greeting: (first, _tone, medium) => (first ? `Hola, ${first}${medium === 'email' ? ':' : '.'}` : `Hola${medium === 'email' ? ':' : '.'}`),
    signOff: (tone) => (tone === 'formal' ? 'Saludos cordiales,' : tone === 'casual' ? 'Saludos,' : 'Un saludo,'),
    slot: (s) => `el ${formatSlot(s, 'es')}`,
    sameDay: (day, times) => `el ${formatDay(day, 'es')} a las ${joinOr(times, 'es')}`,
    yourTime,
    price: (p, noContract) => `${p.from ? 'Nuestros precios empiezan en' : 'El precio es de'} ${p.amount}${p.per ? PER[p.per] : ''}${noContract ? ', sin permanencia' : ''}.`,
    integrates: (tools) => `Nos integramos con ${list(tools)}.`,
    clients: (names) => `Trabajamos, entre otros, con ${list(names)}.`,
    thanks: v('Gracias por su respuesta.', 'Gracias por tu respuesta.'),
    meetingOpen: 'Con mucho gusto organizamos una llamada breve.',
    meetingOpenBack: v('Con mucho gusto organizamos una llamada breve a su vuelta.', 'Con mucho gusto organizamos una llamada breve a tu vuelta.'),
    rescheduleOpen: v('Sin problema — aquí tiene otras opciones.', 'Sin problema — aquí tienes otras opciones.'),
    focus: (company) => `Seré breve (20 minutos) y me centraré en lo que sea relevante para ${company ?? v('usted', 'ti')}.`,
    askSlots: (l) => `¿${cap(le)} vendría bien ${l} ${yourTime}?`,
    invite: v('Le enviaré la invitación en cuanto me confirme.', 'Te enviaré la invitación en cuanto me confirmes.'),
    fallback: v('Si ninguna le encaja, indíqueme dos o tres horarios que le vengan mejor.', 'Si ninguna te encaja, dime dos o tres horarios que te vengan mejor.'),
    confirm: (when) => `${cap(when)} ${yourTime} me viene muy bien — ${le} envío ahora la invitación.`,
    changes: v('Si cambia algo, avíseme sin problema.', 'Si cambia algo, avísame sin problema.'),
    priceUnknown: (company) => `El precio depende del alcance, así que prefiero ${v('prepararle', 'prepararte')} una cifra concreta para ${company ?? v('su equipo', 'tu equipo')} en lugar de un rango genérico.`,
    askTeamSize: v('¿Cuántas personas de su equipo estarían implicadas, aproximadamente?', '¿Cuántas personas de tu equipo estarían implicadas, aproximadamente?'),
    integrationYes: (tools) => `Sí — nos integramos con ${list(tools)}.`,
    integrationCheck: (tools) => `Confirmo cómo funciona exactamente con ${list(tools)} y ${le} digo algo.`,
    integrationUnknown: `Confirmo los detalles de la integración con nuestro equipo y ${le} respondo.`,
    askTools: v('¿Qué herramientas usan actualmente?', '¿Qué herramientas usas actualmente?'),
    proofUnknown: (company) => `Con gusto ${le} envío un caso de éxito de un equipo similar a ${company ?? v('el suyo', 'el tuyo')}.`,
    caseStudy: `También puedo ${v('enviarle', 'enviarte')} un caso de éxito.`,
    showOnScreen: `Lo más sencillo es ${v('enseñárselo', 'enseñártelo')} en pantalla; son unos 15 minutos.`,
    check: `Buena pregunta — lo compruebo y ${le} respondo enseguida.`,
    softCta: (company, l) => `Con gusto ${le} muestro en una llamada breve cómo sería para ${company ?? v('usted', 'ti')}: ¿${le} vendría bien ${l} ${yourTime}?`,
    noCallCta: v('Para cualquier otra duda, responda a este mensaje.', 'Para cualquier otra duda, responde a este mensaje.'),
    shortVersion: 'Con gusto — aquí va el resumen.',
    overviewToday: `Con gusto — hoy mismo ${le} envío un breve resumen.`,
    infoCta: (company) => `Si ${le} parece relevante para ${company ?? v('usted', 'ti')}, ${v('se lo', 'te lo')} explico en una llamada de 15 minutos; si no, ${v('responda', 'responde')} aquí con cualquier duda.`,
    laterAck: 'Lo entiendo perfectamente — gracias por avisar.',
    laterPlan: (date, monthStart, month) => (monthStart ? `${cap(le)} escribiré de nuevo a principios de ${month}.` : `${cap(le)} escribiré de nuevo el ${date}.`),
    laterChange: v('Si algo cambia antes, responda a este mensaje.', 'Si algo cambia antes, responde a este mensaje.'),
    internalAck: 'Tiene sentido — gracias por valorarlo.',
    internalPlan: (date) => `${cap(le)} escribiré el ${date} si no sé nada antes.`,
    referralThanks: 'Gracias por indicarme la persona adecuada.',
    referralAsk: (name) =>
      name
        ? v(`¿Podría presentarme a ${name}? O, si le resulta más fácil, compártame su correo y le escribo directamente mencionando que viene de su parte.`, `¿Podrías presentarme a ${name}? O, si te resulta más fácil, pásame su correo y le escribo directamente mencionando que viene de tu parte.`)
        : v('¿Podría indicarme quién sería la persona adecuada para hablar de esto?', '¿Podrías indicarme quién sería la persona adecuada para hablar de esto?'),
    referralContact: (name, email) => `Escribiré a ${name} a ${email} mencionando que viene de ${v('su', 'tu')} parte.`,
    whoSource: (medium, phone) => `Pregunta legítima — ${medium === 'linkedin' ? `vi ${v('su', 'tu')} perfil aquí en LinkedIn` : `${v('su', 'tu')} ${phone ? 'número' : 'correo profesional'} procede de datos de contacto empresariales de acceso público`}.`,
    whoReason: (company) => `${cap(le)} escribí porque ${company ?? v('su empresa', 'tu empresa')} encaja bien con lo que hacemos.`,
    whoOptOut: (final) => (final ? `No volveré a ${v('contactarle', 'contactarte')}.` : v('Si no le resulta relevante, dígamelo y no volveré a contactarle.', 'Si no te resulta relevante, dímelo y no volveré a contactarte.')),
    ooo: (day, month) => `Gracias por avisar — ${le} escribiré a ${v('su', 'tu')} vuelta${day ? `, el ${day}` : month ? `, en ${month}` : ''}.`,
    noThanks: `Gracias por responder, ${v('se lo', 'te lo')} agradezco.`,
    covered: v('Veo que ya lo tienen bien cubierto.', 'Veo que ya lo tienes bien cubierto.'),
    noFollowUp: `No volveré a ${v('escribirle', 'escribirte')} sobre esto.`,
    wish: 'Mucho éxito',
    unsubscribe: v('Entendido — le he eliminado de nuestra lista y no volverá a saber de nosotros.', 'Entendido — te he eliminado de nuestra lista y no volverás a saber de nosotros.'),
    apology: v('Disculpe la molestia.', 'Disculpa la molestia.'),
    unclearAsk: v('¿Le sería útil una llamada breve, o prefiere un resumen por correo?', '¿Te sería útil una llamada breve, o prefieres un resumen por correo?'),
    resourceSoon: `Con gusto — ${v('se lo', 'te lo')} envío en breve.`,
    inShort: (h) => `En resumen: ${h}`,
  };
}
