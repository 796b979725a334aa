// The portal's stylesheet, served from the service at {base}/assets/portal.css (same origin: the CSP allows no
// other, and no inline style). System fonts, no images: nothing to fetch from anywhere else.
export const PORTAL_CSS = `
:root { color-scheme: light dark; --fg: #1d232b; --muted: #5b6675; --bg: #fbfbfc; --line: #dfe3e8; --accent: #2456c9; --card: #fff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7eaee; --muted: #a2acb8; --bg: #14171b; --line: #2c323a; --accent: #8fb0ff; --card: #1b1f25; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
.skip:focus { left: .5rem; }
.top { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; justify-content: space-between; padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: var(--card); }
.brand { font-weight: 600; }
.signout { display: flex; gap: .5rem; align-items: center; margin: 0; }
.who { color: var(--muted); }
main { max-width: 70rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
button, select, input, textarea { font: inherit; color: inherit; }
button { padding: .45rem .9rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--card); cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
select, input[type=text], input[type=date], textarea { padding: .4rem .5rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--card); max-width: 100%; }
.filters { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin-bottom: 1rem; }
.filters label { display: flex; flex-direction: column; font-size: .9rem; color: var(--muted); }
table { width: 100%; border-collapse: collapse; background: var(--card); }
caption { text-align: left; color: var(--muted); padding: .25rem 0; }
th, td { text-align: left; padding: .55rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.notice { max-width: 36rem; }
.fields { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
.fields dt { color: var(--muted); }
.fields dd { margin: 0; }
.thread { list-style: none; padding: 0; margin: 0; }
.thread li { border: 1px solid var(--line); border-radius: .5rem; padding: .6rem .8rem; margin: .5rem 0; background: var(--card); }
.thread li.outbound { margin-left: 2rem; }
.thread .meta, .trail .meta { color: var(--muted); font-size: .85rem; }
.thread p { white-space: pre-wrap; margin: .25rem 0 0; overflow-wrap: anywhere; }
.trail { padding-left: 1.2rem; }
@media (max-width: 40rem) {
  table.leads thead { position: absolute; left: -999px; }
  table.leads tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.leads td { display: block; border: 0; padding: .1rem .6rem; }
  table.leads td::before { content: attr(data-label) ": "; color: var(--muted); font-size: .85rem; }
  .thread li.outbound { margin-left: .75rem; }
}
/* The review desk (functions/desk): its own classes only, so the portal's look does not change. */
.desk-section { border-top: 1px solid var(--line); padding: .25rem 0 .75rem; }
.desk-section .count { margin: .25rem 0; }
.short-list { padding-left: 1.2rem; }
.short-list .meta, .help { color: var(--muted); font-size: .85rem; }
.queue { list-style: none; padding: 0; margin: 0; }
.card { border: 1px solid var(--line); border-radius: .5rem; padding: .6rem .9rem; margin: .75rem 0; background: var(--card); }
.card h2 { margin: .25rem 0 .5rem; }
.card h3.label { font-size: .85rem; color: var(--muted); margin: .75rem 0 .25rem; font-weight: 600; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; }
blockquote.message { border-left: 3px solid var(--line); padding: .25rem .75rem; }
.thread li.current { border-color: var(--accent); }
.status, .alert { border: 1px solid var(--accent); border-radius: .5rem; padding: .5rem .8rem; background: var(--card); }
.alert h2 { margin: 0 0 .25rem; }
.decision { display: flex; flex-direction: column; align-items: flex-start; gap: .35rem; margin: 1rem 0; max-width: 44rem; }
.decision textarea, .decision input[type=text] { width: 100%; }
.decision .as { font-weight: 400; }
@media (max-width: 40rem) {
  .card { padding: .5rem .6rem; }
  .decision button { width: 100%; }
}
`;
