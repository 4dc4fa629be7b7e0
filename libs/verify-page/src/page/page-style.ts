/** The verifier page's one style block, allowed by its hash. No inline style attribute anywhere: the CSP forbids them. */
export const PAGE_STYLE = `
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1d2330; line-height: 1.45; }
  h1 { font-size: 1.5rem; margin-bottom: .3rem; } h2 { font-size: 1.3rem; margin: 0; } h3 { font-size: 1.05rem; margin: 1.5rem 0 .4rem; }
  .muted, .help { color: #4a5263; } .help { font-size: .9rem; margin: .2rem 0 .8rem; }
  form { display: grid; gap: .25rem; background: #f5f6f8; border-radius: 8px; padding: 1rem 1.2rem; }
  label { font-weight: 600; margin-top: .4rem; }
  input[type=text], textarea { font: .9rem ui-monospace, monospace; padding: .45rem; border: 1px solid #8a93a5; border-radius: 4px; width: 100%; box-sizing: border-box; }
  #drop-zone { border: 2px dashed #8a93a5; border-radius: 8px; padding: .6rem .8rem; background: #fff; }
  #drop-zone.over { border-color: #1f6feb; background: #eef4ff; }
  button { justify-self: start; margin-top: .6rem; padding: .5rem 1.4rem; font-size: 1rem; border: 0; border-radius: 4px; background: #1f6feb; color: #fff; cursor: pointer; }
  :focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
  [aria-invalid=true] { border-color: #b42318; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  #form-error { color: #b42318; min-height: 1.2rem; margin: .3rem 0 0; }
  #result { margin-top: 1.5rem; border-left: 6px solid #8a93a5; padding: .2rem 0 .2rem 1rem; }
  #result[data-verdict=verified] { border-color: #1a7f37; } #result[data-verdict=verified] #verdict { color: #1a7f37; }
  #result[data-verdict=not-verified] { border-color: #b42318; } #result[data-verdict=not-verified] #verdict { color: #b42318; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; } dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
  dd ul { margin: 0; padding-left: 1.1rem; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; } caption { text-align: left; color: #4a5263; padding-bottom: .3rem; }
  th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid #dde1e8; }
  td { font-family: ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
  pre { background: #f5f6f8; padding: .8rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; max-height: 32rem; overflow: auto; }
`;
