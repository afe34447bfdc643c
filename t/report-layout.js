// SPDX-License-Identifier: GPL-2.0
//
// The layout of a migrate_report page in a real browser, for t/46:
// Debian's Chromium, headless, driven by puppeteer-core (installed by
// harness/deps.sh in build/node; it downloads no browser).  For each
// width, the page is laid out at WIDTH x 800 (a phone's scale factor
// of 1), measured and screenshot whole into OUTDIR/report-WIDTH.png;
// one line of JSON a width on standard output.
//
//   node report-layout.js NODE_MODULES PAGE OUTDIR WIDTH...

'use strict';
const path = require('path');
const [modules, page, outdir, ...widths] = process.argv.slice(2);
const puppeteer = require(path.join(modules, 'puppeteer-core'));

// What the page looks like at the width it is laid out at.
function measure() {
	const vw = window.innerWidth;
	const rect = (e) => e.getBoundingClientRect();
	const sections = [...document.querySelectorAll('section')].map((s) => ({
		id: s.id, left: Math.round(rect(s).left), right: Math.round(rect(s).right),
		top: Math.round(rect(s).top),
	}));
	// Each chart: its drawn width, and its text's smallest size in pixels
	// (a text's font size in the SVG's units times the drawn scale).
	const charts = [...document.querySelectorAll('svg.chart')].map((svg) => {
		const scale = rect(svg).width / svg.viewBox.baseVal.width;
		let small = 1e9;
		for (const t of svg.querySelectorAll('text'))
			small = Math.min(small, parseFloat(getComputedStyle(t).fontSize) * scale);
		const box = svg.parentElement;
		return { id: svg.id, width: Math.round(rect(svg).width), text_px: Math.round(small * 10) / 10,
			 box_right: Math.round(rect(box).right), scrolls: box.scrollWidth > box.clientWidth };
	});
	// Each table's box: within its panel, scrolling when the table is wider.
	const tables = [...document.querySelectorAll('section table')].map((t) => {
		const box = t.parentElement, sec = t.closest('section');
		return { section: sec.id, box_class: box.className, box_right: Math.round(rect(box).right),
			 section_right: Math.round(rect(sec).right), table_width: Math.round(rect(t).width),
			 scrolls: box.scrollWidth > box.clientWidth };
	});
	const body = getComputedStyle(document.body);
	return {
		inner_width: vw, scroll_width: document.documentElement.scrollWidth,
		viewport_meta: !!document.querySelector('meta[name=viewport]'),
		font_px: parseFloat(body.fontSize), sections, charts, tables,
	};
}

(async () => {
	const browser = await puppeteer.launch({
		executablePath: '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
		       '--disable-component-update', '--disable-sync'],
	});
	try {
		const tab = await browser.newPage();
		const messages = [];
		tab.on('console', (m) => messages.push(m.text()));
		tab.on('pageerror', (e) => messages.push(String(e)));
		tab.on('request', (r) => { if (!r.url().startsWith('file:')) messages.push('request ' + r.url()); });
		for (const w of widths) {
			await tab.setViewport({ width: Number(w), height: 800, deviceScaleFactor: 1, isMobile: Number(w) < 600,
					      hasTouch: Number(w) < 600 });
			await tab.goto('file://' + path.resolve(page), { waitUntil: 'load' });
			const m = await tab.evaluate(measure);
			m.width = Number(w);
			m.screenshot = path.join(outdir, `report-${w}.png`);
			await tab.screenshot({ path: m.screenshot, fullPage: true });
			m.messages = messages.splice(0);
			console.log(JSON.stringify(m));
		}
	} finally {
		await browser.close();
	}
})().catch((e) => {
	console.error('report-layout.js: ' + (e && e.stack || e));
	process.exit(1);
});
