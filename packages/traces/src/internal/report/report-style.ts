/**
 * The trace report's stylesheet (inlined in the page; no external asset).
 *
 * @module
 */

/** The CSS of the trace report. */
export const REPORT_STYLE = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#f6f7f9}
main{max-width:1200px;margin:0 auto;padding:1.2rem 1.2rem 3rem}
h1{font-size:1.35rem;margin:.2rem 0 .2rem}h2{font-size:1.1rem;margin:0 0 .4rem;overflow-wrap:anywhere}
h3{font-size:.95rem;margin:.9rem 0 .3rem;color:#333}
.sub{color:#555;margin:0 0 1rem}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:.9rem 1rem;margin:0 0 1rem}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(136px,1fr));gap:.6rem;margin:0 0 1rem}
.tile{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:.5rem .7rem}
.tile b{display:block;font-size:1.3rem}.tile small{color:#555;font-size:.85rem;margin-left:.2rem}
.card>h3:first-child{margin-top:0}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:1rem}
.hist{display:grid;grid-template-columns:6.5rem 1fr 3.5rem;gap:.25rem .5rem;align-items:center}
.hist .bar{height:14px;background:#e9edf2;border-radius:3px;position:relative;overflow:hidden}
.hist .bar i{position:absolute;left:0;top:0;bottom:0;background:#3b6fd8}
.hist span:last-child,.hist .n{text-align:right;font-variant-numeric:tabular-nums}
table{border-collapse:collapse;width:100%;table-layout:fixed}
th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid #eceff3;vertical-align:top}
th{font-weight:600;color:#444;font-size:.85rem}
td.id{overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.82rem}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
col.rank{width:2.5rem}col.num{width:11%}col.v{width:8.5rem}
.yes{color:#b42318;font-weight:600}.no{color:#4a5565}
.verdict{margin:.2rem 0}.verdict.bad b{color:#b42318}.verdict.ok b{color:#146c2e}
.nums{margin:.2rem 0}.pats{margin:.3rem 0 0;padding-left:1.3rem}.pats li{margin:.15rem 0}
.mark,.band b{display:inline-block;min-width:1.1rem;text-align:center;border-radius:3px;background:#f4d35e;color:#1a1a1a;font-size:.75rem;font-weight:700;line-height:1.1rem}
.note{color:#666;font-size:.85rem;margin:.3rem 0}
.legend{display:flex;flex-wrap:wrap;gap:.4rem 1rem;font-size:.85rem;color:#444;margin:.3rem 0 0}
.legend span{display:inline-flex;align-items:center;gap:.35rem}
.legend i{display:inline-block;width:1.4rem;height:.7rem;border-radius:2px;position:static}
.tl{position:relative;padding-left:8.5rem;margin:.2rem 0 .4rem}
.tl .bands{position:absolute;left:8.5rem;right:0;top:0;bottom:1.2rem;pointer-events:none}
.band{position:absolute;top:0;bottom:0;border-left:1px dashed #c9a227;border-right:1px dashed #c9a227;background:rgba(244,211,94,.16);overflow:hidden}
.band b{position:absolute;right:1px;top:1px}
.band.saved{background:repeating-linear-gradient(45deg,rgba(20,108,46,.07) 0 6px,rgba(20,108,46,.16) 6px 12px);border-color:#3f8f5a}
.band.saved b{background:#d5ecd9;white-space:nowrap;padding:0 .25rem}
.row{position:relative;height:20px;border-bottom:1px solid #f0f2f5}
.lbl{position:absolute;left:-8.5rem;width:8.2rem;top:0;line-height:20px;font-size:.78rem;color:#444;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.lbl.d1{padding-left:.8rem}.lbl.d2{padding-left:1.6rem}.lbl.d3{padding-left:2.4rem}
.trk{position:absolute;left:0;right:0;top:3px;bottom:3px}
.b{position:absolute;top:0;bottom:0;min-width:2px;border-radius:2px;background:#7aa2e8}
.b.m{background:#4a5565}.b.o{background:#b8c0cc}
.b.n{background:transparent;border:2px solid #7aa2e8;top:auto;height:5px;border-top:0;border-radius:0 0 2px 2px}
.b.c{background:#e4572e}.b.m.c{background:#9c2f12}.b.n.c{background:transparent;border-color:#e4572e}
.b.x{background-image:repeating-linear-gradient(135deg,transparent 0 3px,rgba(255,255,255,.75) 3px 5px);outline:1px solid #b42318}
.axis{position:relative;height:1.2rem;font-size:.72rem;color:#666;border-top:1px solid #c5ccd6}
.axis span{position:absolute;top:1px;transform:translateX(-50%);white-space:nowrap}
.axis span:first-child{transform:none}.axis span.r{transform:translateX(-100%)}
a{color:#2356b8}
@media (max-width:860px){main{padding:.8rem}.tl{padding-left:6.5rem}.tl .bands{left:6.5rem}.lbl{left:-6.5rem;width:6.2rem}}
`;
