// The portal's stylesheet, served from the service at {base}/assets/portal.css (same origin: the CSP allows no
// other, and no inline style). System fonts, no images: nothing to fetch from anywhere else. The desk uses it too.
export const PORTAL_CSS = `
:root { color-scheme: light dark; --fg: #1d232b; --muted: #5b6675; --bg: #f6f7f9; --line: #dfe3e8; --accent: #2456c9; --on-accent: #fff; --card: #fff; --tint: #eef3fd; --radius: .55rem; --control: 2.5rem; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7eaee; --muted: #a2acb8; --bg: #111418; --line: #2c323a; --accent: #8fb0ff; --on-accent: #0d1526; --card: #1a1e24; --tint: #1c2535; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-underline-offset: .15em; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
.skip:focus { left: .5rem; }
.top { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; justify-content: space-between; padding: .6rem max(1rem, calc((100% - 72rem) / 2 + 1rem)); border-bottom: 1px solid var(--line); background: var(--card); }
.brand { font-weight: 650; letter-spacing: -.01em; }
.signout { display: flex; gap: .6rem; align-items: center; margin: 0; }
.who { color: var(--muted); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
main:focus { outline: none; }
h1 { font-size: 1.55rem; line-height: 1.25; letter-spacing: -.01em; margin: .75rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.75rem 0 .6rem; }
p { overflow-wrap: anywhere; }
button, select, input, textarea { font: inherit; color: inherit; }
button { min-height: var(--control); padding: .4rem 1rem; border: 1px solid var(--line); border-radius: var(--radius); background: var(--card); cursor: pointer; font-weight: 550; }
button:hover { border-color: var(--muted); }
button.primary { background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
button.primary:hover { filter: brightness(1.08); }
select, input[type=text], input[type=date], textarea { min-height: var(--control); padding: .4rem .6rem; border: 1px solid var(--line); border-radius: var(--radius); background: var(--card); max-width: 100%; }
textarea { line-height: 1.45; }
.filters { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin-bottom: 1rem; }
.filters label { display: flex; flex-direction: column; gap: .2rem; font-size: .85rem; color: var(--muted); }
.filters select, .filters button { height: var(--control); }
.filters select { min-width: 10rem; color: var(--fg); }
table { width: 100%; border-collapse: separate; border-spacing: 0; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden; }
caption { text-align: left; color: var(--muted); padding: .25rem 0 .5rem; font-size: .9rem; }
th, td { text-align: left; padding: .6rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
tbody tr:last-child td { border-bottom: 0; }
tbody tr:hover { background: var(--tint); }
th { font-size: .8rem; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
td a { font-weight: 550; }
td .who { font-size: .85rem; max-width: 17rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.date { white-space: nowrap; }
.col-when { color: var(--muted); font-size: .9rem; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.notice { max-width: 36rem; }
.signin { margin: 12vh auto 0; padding: 1.5rem 1.75rem; text-align: center; background: var(--card); border: 1px solid var(--line); border-radius: .75rem; }
.signin h1 { margin-top: 0; }
.signin button { min-width: 12rem; }
.fields { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
.fields dt { color: var(--muted); }
.fields dd { margin: 0; overflow-wrap: anywhere; }
.thread, .notes { list-style: none; padding: 0; margin: 0; }
.thread li, .notes li { border: 1px solid var(--line); border-radius: var(--radius); padding: .65rem .9rem; margin: .5rem 0; background: var(--card); }
.thread li.outbound { margin-left: 2rem; background: var(--tint); }
.thread .meta, .trail .meta, .notes .meta { color: var(--muted); font-size: .85rem; }
.thread p, .notes p { white-space: pre-wrap; margin: .25rem 0 0; overflow-wrap: anywhere; }
.trail { padding-left: 1.2rem; margin: 0; }
.trail li { margin: .3rem 0; overflow-wrap: anywhere; }
.edit p { margin: 0 0 .8rem; }
.edit label { font-size: .9rem; color: var(--muted); }
.edit select, .edit input[type=text], .edit input[type=date], .edit textarea { width: 100%; }
/* Two columns from 60rem: the conversation (first in the markup) left, the deal and its form right. */
@media (min-width: 60rem) {
  .split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 2fr); gap: 2rem; align-items: start; }
  .side-col > section, .area-decision > section { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: .25rem 1.1rem 1rem; margin-bottom: 1rem; }
  .side-col h2, .area-decision h2 { margin-top: 1rem; }
  .primary-col > section:first-child > h2 { margin-top: .5rem; }
}
/* Below 62rem the table's six columns do not fit (an address, a timestamp that does not wrap): a lead becomes a card
   of two lines, the name, then classification · phase · last activity (the next action below, if any). */
@media (max-width: 62rem) {
  table.leads, table.leads tbody { display: block; border: 0; background: none; overflow: visible; }
  table.leads caption { display: block; }
  table.leads thead { position: absolute; left: -999px; }
  table.leads tr { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 .35rem; padding: .55rem .75rem; margin: 0 0 .4rem; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); }
  table.leads td { display: block; border: 0; padding: 0; font-size: .9rem; color: var(--muted); }
  table.leads td.col-lead { flex: 0 0 100%; min-width: 0; font-size: 1rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  table.leads td.col-lead .who, table.leads td.col-campaign, table.leads td.col-next.empty { display: none; }
  table.leads td.col-class { order: 1; }
  table.leads td.col-phase { order: 2; }
  table.leads td.col-when { order: 3; }
  table.leads td.col-phase::before, table.leads td.col-when::before { content: "· "; }
  table.leads td.col-next { order: 4; flex: 0 0 100%; min-width: 0; font-size: .85rem; }
  table.leads td.col-next::before { content: "Next: "; }
}
@media (max-width: 40rem) {
  .filters { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) auto; gap: .5rem; }
  .filters select { min-width: 0; width: 100%; }
  .thread li.outbound { margin-left: .75rem; }
  .signin { margin-top: 2rem; padding: 1.25rem 1rem; }
}
/* The review desk (functions/desk): its own classes. */
.desk-section { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: .25rem 1.1rem .75rem; margin: 1rem 0; }
.desk-section h2 { margin-top: .9rem; }
.desk-section .count { margin: .25rem 0; color: var(--muted); }
.short-list { list-style: none; padding: 0; margin: .5rem 0; }
.short-list li { padding: .4rem 0; border-top: 1px solid var(--line); overflow-wrap: anywhere; }
.short-list .meta, .help { color: var(--muted); font-size: .85rem; }
.short-list .meta { display: block; }
.queue { list-style: none; padding: 0; margin: 0; }
.card { border: 1px solid var(--line); border-radius: .75rem; padding: .75rem 1.1rem; margin: .75rem 0; background: var(--card); }
.card h2 { margin: .25rem 0 .6rem; overflow-wrap: anywhere; }
.card h3.label { font-size: .8rem; color: var(--muted); margin: .75rem 0 .25rem; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
.card .fields { font-size: .9rem; }
@media (min-width: 50rem) {
  .card .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1.25rem; }
  .card .fields { grid-template-columns: max-content minmax(0, 1fr) max-content minmax(0, 1fr); }
}
.message { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; }
blockquote.message { border-left: 3px solid var(--line); padding: .25rem .75rem; }
p.message.draft { background: var(--tint); border-radius: var(--radius); padding: .4rem .75rem; }
.thread li.current { border-color: var(--accent); }
.status, .alert { border: 1px solid var(--accent); border-radius: var(--radius); padding: .6rem .9rem; background: var(--tint); }
.alert h2 { margin: 0 0 .25rem; }
.decision { display: flex; flex-direction: column; align-items: flex-start; gap: .4rem; margin: 1rem 0; max-width: 44rem; }
.decision + .decision { border-top: 1px solid var(--line); padding-top: 1rem; }
.decision label { font-size: .9rem; color: var(--muted); }
.decision textarea, .decision input[type=text] { width: 100%; }
.decision .as { font-weight: 400; }
/* The desk's reply page from 60rem: the reply and the thread left, the draft and its decisions right. */
@media (min-width: 60rem) {
  .review-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(22rem, 1fr); grid-template-areas: "reply decision" "thread decision"; grid-template-rows: auto 1fr; gap: 0 2rem; align-items: start; }
  .area-reply { grid-area: reply; }
  .area-thread { grid-area: thread; }
  .area-decision { grid-area: decision; }
  .area-reply h2 { margin-top: .5rem; }
  .area-decision .decision button { width: 100%; }
}
@media (max-width: 40rem) {
  .card { padding: .6rem .75rem; }
  .fields { font-size: .9rem; gap: .2rem .75rem; }
  .decision button { width: 100%; }
}
`;
