/// The HTML report's fixed style sheet and script, and the Content-Security-Policy that allows exactly
/// them. Neither contains anything from the store or the workload: the page's `<style>` and `<script>`
/// are these constants, byte for byte, so their SHA-256 hashes are listed in the policy, and any other
/// script or style (an injected one included) is refused by the browser, as is every network request.
public enum HTMLAssets {
    /// Light by default, dark under `prefers-color-scheme: dark`, black on white in print. System fonts only.
    public static let styleSheet = """
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--accent:#0969da;--good:#1a7f37;--bad:#cf222e;--warn:#9a6700;--before:#8c959f;--flagged:#d1242f;--after:#1f883d;--goodbg:#dafbe1;--badbg:#ffebe9}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;--accent:#4493f8;--good:#3fb950;--bad:#f85149;--warn:#d29922;--before:#656c76;--flagged:#f85149;--after:#3fb950;--goodbg:#12261e;--badbg:#301417}}
*{box-sizing:border-box}
html{background:var(--bg)}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",system-ui,Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1120px;margin:0 auto;padding:28px 28px 64px}
h1{font-size:26px;line-height:1.25;margin:0 0 6px}
h1 .store{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:22px}
h2{font-size:21px;margin:44px 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:17px;margin:14px 0 8px}
a{color:var(--accent)}
code,pre,.mono,ul.tree{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:13px}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:8px 0;white-space:pre-wrap;overflow-wrap:anywhere}
code{background:var(--panel);border-radius:4px;padding:1px 4px;overflow-wrap:anywhere}
td,th,h2,h3,li,p,dd{overflow-wrap:anywhere}
pre code{background:none;padding:0}
p{margin:8px 0}
.muted,.meta{color:var(--muted)}
.meta{margin:0}
.lead{font-size:17px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(235px,1fr));gap:12px;margin:18px 0}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.card .k{color:var(--muted);font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.05em}
.card .v{font-size:23px;font-weight:650;line-height:1.25;margin:3px 0}
.card .d{color:var(--muted);font-size:13px}
.good{color:var(--good)}
.bad{color:var(--bad)}
.warn{color:var(--warn)}
table{border-collapse:collapse;width:100%;margin:8px 0;font-size:14px}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:13px}
td.num,th.num{text-align:right;white-space:nowrap}
.iqr{display:block;color:var(--muted);font-size:12px;white-space:nowrap}
.badge{display:inline-block;font-size:12px;font-weight:600;line-height:18px;border-radius:9px;padding:0 8px;margin:0 0 0 6px;vertical-align:2px;white-space:nowrap}
.badge.bad{background:var(--badbg);color:var(--bad)}
.badge.good{background:var(--goodbg);color:var(--good)}
.badge.plain{background:var(--panel);color:var(--muted);border:1px solid var(--line)}
article{border:1px solid var(--line);border-radius:8px;padding:6px 16px 12px;margin:16px 0}
.plans{display:grid;grid-template-columns:repeat(auto-fit,minmax(330px,1fr));gap:12px}
figure{margin:6px 0;min-width:0}
figcaption{font-size:13px;color:var(--muted);font-weight:600;margin-bottom:2px}
.plan{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow-wrap:anywhere;overflow-x:auto;min-width:0}
.plan-root{color:var(--muted)}
ul.tree,ul.tree ul{list-style:none;margin:0;padding:0 0 0 10px}
ul.tree li{position:relative;padding-left:16px}
ul.tree li::before{content:"";position:absolute;left:0;top:0;bottom:0;border-left:1px solid var(--muted)}
ul.tree li:last-child::before{bottom:auto;height:.75em}
ul.tree li::after{content:"";position:absolute;left:0;top:.75em;width:11px;border-top:1px solid var(--muted)}
.step.bad{color:var(--bad);font-weight:600}
.step.good{color:var(--good)}
.codeblock{position:relative}
.copy{display:none;position:absolute;top:6px;right:6px;font:12px system-ui,sans-serif;padding:2px 8px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
.js .copy{display:block}
.js .codeblock pre{padding-right:64px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:3px 16px;margin:8px 0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
ul.notes{padding-left:20px}
ul.charge{padding-left:20px;margin:8px 0}
details>summary{cursor:pointer}
details>summary h2{display:inline-block;border-bottom:none;margin:44px 0 12px}
ul.notes li{margin:4px 0}
nav.toc{font-size:14px;margin:8px 0 0}
nav.toc a{margin-right:14px;white-space:nowrap}
svg.chart{width:100%;height:auto;display:block;margin:8px 0}
svg.chart text{fill:var(--fg);font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",system-ui,sans-serif;font-size:12px}
svg.chart .tick,svg.chart .caption,svg.chart .note,svg.chart .axis-title,svg.chart .legend{fill:var(--muted)}
svg.chart .row-label{font-weight:600;fill:var(--accent)}
svg.chart .grid{stroke:var(--line);stroke-width:1}
svg.chart .bar-before{fill:var(--before)}
svg.chart .bar-before.flagged{fill:var(--flagged)}
svg.chart .bar-after{fill:var(--after)}
svg.chart .bar-after.slower{fill:var(--warn)}
svg.chart .bar-after.unfixed{fill:var(--flagged);opacity:.5}
svg.chart .whisker{stroke:var(--fg);stroke-width:1.2;fill:none;opacity:.75}
svg.chart .value{font-size:11px}
svg.chart .strip{fill:var(--panel)}
svg.chart .diagonal{stroke:var(--muted);stroke-width:1.2;stroke-dasharray:5 4}
svg.chart .diagonal-label{fill:var(--muted);font-size:11px}
svg.chart .dot-recommended{fill:var(--after);stroke:var(--bg);stroke-width:1.5}
svg.chart .dot-rejected{fill:var(--bg);stroke:var(--muted);stroke-width:1.5}
svg.chart .point-label{font-size:11px;fill:var(--muted)}
svg.chart .point-label.strong{fill:var(--fg);font-weight:600}
footer{color:var(--muted);font-size:13px;margin-top:48px;border-top:1px solid var(--line);padding-top:12px}
@media print{
:root{--bg:#ffffff;--fg:#000000;--muted:#444c56;--line:#b8c0c8;--panel:#f4f6f8;--accent:#000000;--before:#8c959f;--flagged:#d1242f;--after:#1f883d}
body{font-size:10.5pt}
main{max-width:none;padding:0}
.copy,nav.toc{display:none!important}
article,figure,tr,.card,svg.chart,pre{break-inside:avoid}
h2,h3{break-after:avoid}
a{color:inherit;text-decoration:none}
}
"""

    /// Shows "Copy" buttons where the browser offers a clipboard, and copies the code block a button names.
    public static let script = """
if (navigator.clipboard) { document.documentElement.classList.add("js"); }
document.addEventListener("click", function (event) {
  var button = event.target && event.target.closest ? event.target.closest("button.copy") : null;
  if (!button) { return; }
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) { return; }
  navigator.clipboard.writeText(source.textContent).then(function () {
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = "Copy"; }, 1500);
  }, function () { button.textContent = "Select and copy"; });
});
"""

    /// `sha256-…` of ``styleSheet`` and of ``script``, as the policy lists them.
    public static let styleSheetHash = SHA256.cspSource(of: styleSheet)
    public static let scriptHash = SHA256.cspSource(of: script)

    /// The page's policy: nothing may load from anywhere, and only the style sheet and script above run.
    public static var contentSecurityPolicy: String {
        "default-src 'none'; style-src '\(styleSheetHash)'; script-src '\(scriptHash)'; img-src data:; base-uri 'none'; form-action 'none'"
    }
}
