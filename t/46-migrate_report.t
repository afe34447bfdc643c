#!/usr/bin/perl
# scripts/migrate_report in a real browser: Debian's Chromium, headless,
# loads the page of a generated run (whose counts this test makes on the
# side) and of the guest's trace and stat, with no console message; the
# DOM it built holds every section and chart, with the generated counts;
# the page refers to nothing outside itself; a screenshot at 1366x768 is
# not blank and shows colored data; each chart drawn alone has colored
# data where the same chart of a run without migrations has only axes.
# The charts' axes span their data (an empty stat of 8 s too), an empty
# chart says "No migration", a page without a stat has a rate chart from
# the trace, the timeline has a tick at its end and CPU ticks.  The page
# laid out in Chromium at 360 and 1600 px: a viewport tag, no console
# message and no request, no horizontal overflow, one column on the
# phone, tables and charts scrolling inside their panels, chart text 8 px
# or more; screenshots in out/report-360.png and out/report-1600.png.
use strict;
use warnings;
no warnings 'portable';
use Test::More;
use File::Temp qw(tempdir);
use Time::HiRes qw(time);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(put slurp png_rows);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $report = "$top/scripts/migrate_report";
my $dir = tempdir(CLEANUP => 1);
my $t0 = time();
unless (`command -v chromium 2>/dev/null`) {
	print "1..1\nnot ok 1 - chromium is not installed (harness/deps.sh installs it)\n";
	exit(1);
}

# ---- a made-up run: its trace, its stat and what they hold ------------------------

my @causes = (['try_to_wake_up', qw(wake_affine idle_core idle_cpu)], ['wake_up_new_task', 'slow_path'],
	      ['detach_tasks', 'lb_busy_load'], ['migration_cpu_stop', 'affinity'], ['push_rt_task']);
my (%rnum, @rnames);
for my $c (@causes) {
	for (@{$c}[1 .. $#$c]) {
		push @rnames, $_;
		$rnum{$_} = @rnames;
	}
}
my %want;	# cause, "cause/reason", "from to", pid => count; moves of a pid

# NMIG migrations (none: a run that moved nothing) over 8 s on 4 CPUs,
# 2 LLCs of 2 cores; the stat counts the same moves in 100 ms periods.
sub make_run {
	my ($name, $nmig) = @_;
	srand(46);
	my $c0 = 5_000_000_000;
	my $k = @causes;
	my $t = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n# overwrite 0\n# buffer_size_kb 1024\n" .
		"# dropped 0\n# overwritten 0\n" . join('', map { "# cpu_lost $_ 0 0\n" } 0 .. 3) .
		join('', map { "# cause " . ($_ + 1) . " $causes[$_][0]\n" } 0 .. $#causes) .
		join('', map { "# loc " . ++$k . " $_\n" } qw(copy_process set_task_comm task_list mark lost saved_comm)) .
		join('', map { "# reason $rnum{$_} $_\n" } @rnames) .
		"# topology 0 0 0 0\n# topology 1 1 0 0\n# topology 2 2 2 0\n# topology 3 3 2 0\n" .
		join('', map { sprintf("0x%016x %d . . . start_sched_clock 1795238516 500000\n", $c0, $_) } 0 .. 3);
	my @tasks = map { [100 + $_, "worker$_", $_ % 4] } 0 .. 11;
	$t .= sprintf("0x%016x 0 . . %d %d : %s\n", $c0, $_->[0], @causes + 3, $_->[1]) for @tasks;
	my (@rows, %w);
	for my $i (1 .. $nmig) {
		my $ts = $c0 + int(8e9 * $i / ($nmig + 1));
		my $task = $tasks[int(rand(1)**2 * @tasks)];
		my $ci = rand() < 0.6 ? 0 : int(rand(@causes));
		my $c = $causes[$ci];
		my $r = @$c > 1 ? $c->[1 + int(rand(@$c - 1))] : undef;
		my $to = ($task->[2] + 1 + int(rand(3))) % 4;
		$t .= sprintf("0x%016x %d %d %d %d %d %d\n", $ts, $to, $task->[2], $to, $task->[0], $ci + 1,
			      $r ? $rnum{$r} : 0);
		my $p = int(($ts - $c0) / 1e8);
		$rows[$p]{$c->[0]}++;
		$rows[$p]{"$c->[0]/" . ($r // 'none')}++ if @$c > 1;
		$w{$c->[0]}++;
		$w{"$c->[0]/" . ($r // 'none')}++;
		$w{"$task->[2] $to"}++;
		$w{$task->[0]}++;
		$task->[2] = $to;
	}
	$t .= sprintf("0x%016x 0 . . 1 %d 0x00000002\n", $c0 + 8e9, @causes + 4);
	my @f = ((map { $_->[0] } @causes), 'migrate',
		 map { my $c = $_; @$c > 1 ? map { "$c->[0]/$_" } 'none', @{$c}[1 .. $#$c] : () } @causes);
	my $s = "# version 1.2.0\n# period_msec 100\n# gettimeofday 1795238516 500000\n# ts_field 1\n" .
		"# nr_cpus 4\n# dropped 0\n" . sprintf("# sched_clock 0x%016x\n", $c0) .
		join('', map { sprintf("# field %d %s\n", $_ + 2, $f[$_]) } 0 .. $#f);
	for my $p (0 .. 79) {
		my $row = $rows[$p] // {};
		my $all = 0;
		$all += $row->{$_->[0]} // 0 for @causes;
		$s .= sprintf("%d.%03d %s\n", int($p / 10), ($p % 10) * 100,
			      join(' ', map { $_ eq 'migrate' ? $all : $row->{$_} // 0 } @f));
	}
	put("$dir/$name.trace", $t);
	put("$dir/$name.stat", $s);
	return \%w;
}

# ---- Chromium ------------------------------------------------------------------------

my $runs = 0;
# Chromium headless on FILE, with a new profile, nothing from the network,
# at most 60 s; ARGS: --dump-dom or --screenshot=PNG.  Returns (its
# standard output, the console messages it logged).
sub chromium {
	my ($file, @args) = @_;
	my $prof = "$dir/profile" . ++$runs;
	mkdir($prof) or die;
	my @cmd = ('timeout', '60', 'chromium', '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		   '--no-first-run', '--disable-background-networking', '--disable-component-update',
		   '--disable-sync', "--user-data-dir=$prof", '--hide-scrollbars', '--enable-logging=stderr',
		   '--v=0', @args, "file://$file");
	my $sh = join(' ', map { "'" . s/'/'\\''/gr . "'" } @cmd);	# an argument may hold a space
	my $out = `$sh 2>$dir/chromium.err`;
	my @console = grep { /:CONSOLE[:(]/ } split /\n/, slurp("$dir/chromium.err");
	return ($out, \@console);
}

# Pixels of a screenshot: (all, unlike the page's gray or white, colored:
# a channel 60 or more from another, distinct colors).
sub pixels {
	my ($png) = @_;
	my ($w, $h, $bpp, $rows) = png_rows($png) or return (0, 0, 0, 0);
	my ($ink, $colored, %colors) = (0, 0);
	for my $row (@$rows) {
		my @c = unpack('C*', $row);
		for (my $i = 0; $i < @c; $i += $bpp) {
			my ($r, $g, $b) = @c[$i .. $i + 2];
			$colors{"$r $g $b"} = 1;
			next if ($r == 255 && $g == 255 && $b == 255) || ($r == 0xf3 && $g == 0xf4 && $b == 0xf6);
			$ink++;
			my ($lo, $hi) = (sort { $a <=> $b } $r, $g, $b)[0, 2];
			$colored++ if $hi - $lo >= 60;
		}
	}
	return ($w * $h, $ink, $colored, scalar(keys %colors));
}

my %chart_min = ('chart-rates' => 10000, 'chart-heatmap' => 5000, 'chart-timeline' => 2000,
		 'chart-topology' => 1000);
my @sections = qw(facts rates causes heatmap timeline reasons topology tasks);

# Each chart of page HTML alone, screenshot at its size: colored pixels.
sub chart_ink {
	my ($html, $tag) = @_;
	my %ink;
	for my $id (sort keys %chart_min) {
		my ($svg) = $html =~ /(<svg id="$id".*?<\/svg>)/s or next;
		my ($h) = $svg =~ /height="(\d+)"/;
		put("$dir/$tag-$id.html", "<!DOCTYPE html><html><body style=\"margin:0\">$svg</body></html>");
		# A small window shows less than its height: room to spare.
		chromium("$dir/$tag-$id.html", '--window-size=1280,' . ($h + 300), "--screenshot=$dir/$tag-$id.png");
		$ink{$id} = (pixels("$dir/$tag-$id.png"))[2];
	}
	return \%ink;
}

# ---- the negative controls: the checks can fail ---------------------------------------

put("$dir/error.html", "<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script></body></html>");
my (undef, $console) = chromium("$dir/error.html", '--dump-dom');
ok(grep({ /Uncaught ReferenceError/ } @$console), 'a page with a script error: its console error is seen')
	or diag("chromium logged: @$console");

make_run('empty', 0);
my $out = `$report -o $dir/empty.html $dir/empty.trace $dir/empty.stat 2>&1`;
is($out, "$dir/empty.html\n", 'a run without migrations: a page all the same, no warning');
my $empty = chart_ink(slurp("$dir/empty.html"), 'empty');
ok(!grep({ $empty->{$_} >= $chart_min{$_} } keys %chart_min) && keys %$empty == keys %chart_min,
   'its charts, axes without data, fall below the content thresholds: ' .
   join(', ', map { "$_ $empty->{$_}" } sort keys %$empty));

# ---- the generated run ------------------------------------------------------------------

my $want = make_run('run', 3000);
my $page = "$dir/report.html";
$out = `$report --kernel 'Linux test 6.12.0 #1 SMP x86_64' -o $page $dir/run.trace $dir/run.stat 2>&1`;
is($out, "$page\n", 'migrate_report writes the page and names it');
my $html = slurp($page);
my @refs = $html =~ /(<script|<link|<img|<iframe|<object|\bsrc=|\bhref=|url\(|\@import|https?:)/gi;
is_deeply(\@refs, [], 'the page refers to nothing outside itself (no script, link, src, href, url)');

my $dom;
($dom, $console) = chromium($page, '--dump-dom');
is_deeply($console, [], 'Chromium loads the page with no console message');
ok(length($dom) > 10000 && $dom =~ /<\/html>\s*\z/, 'Chromium dumped the DOM it built');
for my $s (@sections) {
	like($dom, qr/<section id="$s">\s*<h2>[^<]+<\/h2>/, "the DOM holds section '$s' with its heading");
}
for my $id (sort keys %chart_min) {
	like($dom, qr/<svg id="$id"[^>]*class="chart"/, "the DOM holds chart '$id'");
}
my $stat_causes = grep { $want->{$_->[0]} } @causes;
is(scalar(() = $dom =~ /<polygon class="area"/g), $stat_causes, "the rate chart stacks the $stat_causes causes that moved tasks");
my %cells = $dom =~ /<title>CPU (\d+ to CPU \d+): (\d+)<\/title>/g;
is_deeply({ map { (s/ to CPU / /r) => $cells{$_} } grep { $cells{$_} } keys %cells },
	  { map { $_ => $want->{$_} } grep { /^\d \d$/ } keys %$want }, 'the heatmap\'s cells: the moves of each CPU pair');
my ($causes_table) = $dom =~ /<section id="causes">(.*?)<\/section>/s;
my %rows = ($causes_table // '') =~ /<\/span>(\w+)<\/td><td>(\d+)<\/td>/g;
is_deeply(\%rows, { map { $_->[0] => $want->{$_->[0]} } grep { $want->{$_->[0]} } @causes },
	  'the cause table: the moves of each cause');
my ($reasons_table) = $dom =~ /<section id="reasons">(.*?)<\/section>/s;
my @rr = ($reasons_table // '') =~ /<\/span>(\w+)<\/td><td>(\w+)<\/td><td>(\d+)<\/td>/g;
my %got_r;
while (my ($c, $r, $n) = splice(@rr, 0, 3)) {
	$got_r{"$c/$r"} = $n;
}
is_deeply(\%got_r, { map { $_ => $want->{$_} } grep { m@/@ } keys %$want },
	  'the cause/reason table: the moves of each pair');
my @pids = sort { $want->{$b} <=> $want->{$a} || $a <=> $b } grep { /^\d{3}$/ } keys %$want;
my $moves = 0;
$moves += $want->{$_} for @pids[0 .. 7];
is(scalar(() = $dom =~ /<circle class="move"/g), $moves, "the timeline: a dot for each of the $moves moves of the 8 busiest tasks");
like($dom, qr/<dt>kernel<\/dt><dd>Linux test 6\.12\.0 #1 SMP x86_64<\/dd>/, 'the facts name the kernel given');
like($dom, qr/<div class="k">CPUs<\/div><div class="v">4<\/div><div class="d">1 NUMA node, 2 LLCs, 4 cores</,
     'the facts: 4 CPUs and their topology');
like($dom, qr/<div class="k">lost<\/div><div class="v">0<\/div>/, 'the facts: nothing lost');

chromium($page, '--window-size=1366,768', "--screenshot=$dir/laptop.png");
my ($all, $ink, $colored, $ncolors) = pixels("$dir/laptop.png");
ok($all == 1366 * 768, 'a screenshot of 1366x768 (a common laptop)');
ok($ink > $all * 0.05 && $ncolors > 100,
   sprintf('it is not blank: %.1f %% of it is ink, in %d colors', 100 * $ink / ($all || 1), $ncolors));
ok($colored >= 10000, "its chart has colored data: $colored pixels");
my $ink_of = chart_ink($html, 'run');
for my $id (sort keys %chart_min) {
	ok(($ink_of->{$id} // 0) >= $chart_min{$id}, "$id drawn alone: " . ($ink_of->{$id} // 0) .
	   " colored pixels of data (an empty one: $empty->{$id})");
}

# ---- the charts' axes, and charts with nothing to draw -----------------------------------

# The SVG element ID of page HTML.
sub svg_of {
	my ($html, $id) = @_;
	my ($svg) = $html =~ /(<svg id="$id".*?<\/svg>)/s;
	return $svg // '';
}

# The labels of a chart's time axis (centered numbers), in order.
sub x_labels {
	return $_[0] =~ /<text x="[\d.]+" y="\d+" text-anchor="middle" fill="#444">([\d.]+)<\/text>/g;
}

my $empty_html = slurp("$dir/empty.html");
my @xl = x_labels(svg_of($empty_html, 'chart-rates'));
is($xl[-1], 8, 'an empty stat of 8 s: the rate chart\'s time axis ends at 8 s, its real span') or diag("@xl");
like(svg_of($empty_html, 'chart-rates'), qr/>No migration</, 'an empty stat: the rate chart says "No migration"');
like(svg_of($empty_html, 'chart-timeline'), qr/>No migration</, 'an empty trace: the timeline says "No migration"');

$out = `$report -o $dir/nostat.html $dir/run.trace 2>&1`;
my $rates = svg_of(slurp("$dir/nostat.html"), 'chart-rates');
is(scalar(() = $rates =~ /<polygon class="area"/g), $stat_causes,
   "without a stat: the rate chart, from the trace, stacks the $stat_causes causes that moved tasks") or diag($out);
is_deeply({ $rates =~ /fill="#222">(\w+)  (\d+)<\/text>/g },
	  { map { $_->[0] => $want->{$_->[0]} } grep { $want->{$_->[0]} } @causes },
	  'without a stat: its key gives the moves of each cause in the trace');
@xl = x_labels($rates);
is($xl[-1], 8, 'without a stat: its time axis spans the trace, 8 s') or diag("@xl");

# The run cut at 7.3 s: its timeline ends between two round ticks.
my $cut = join('', grep { !/^0x(\w+)/ || hex($1) < 5_000_000_000 + 7.3e9 } split /^/, slurp("$dir/run.trace"));
put("$dir/cut.trace", $cut);
my ($last) = $cut =~ /^0x(\w+) [^\n]*\n\z/m;
my $end = sprintf('%.2f', (hex($last) - 5_000_000_000) / 1e9);
`$report -o $dir/cut.html $dir/cut.trace`;
my $tl = svg_of(slurp("$dir/cut.html"), 'chart-timeline');
@xl = x_labels($tl);
ok($xl[-1] eq $end && $tl =~ /<line x1="1030\.0" x2="1030\.0" y1="\d+" y2="\d+"/,
   "a timeline of $end s: a tick at its end, labelled $end") or diag("@xl");
my @cpu_ticks = $tl =~ /<text class="cpu"[^>]*>(\d+)<\/text>/g;
is("@cpu_ticks", join(' ', (0 .. 3) x 8), 'the timeline: each of its 8 lanes has a tick for each of the 4 CPUs');

# ---- the page on a phone and on a wide screen -------------------------------------------

# The page laid out in Chromium at 360 and 1600 px and measured there.
# Headless Chromium keeps a window at least 500 px wide, whatever
# --window-size asks; a kiosk window fills the screen, and --screen-info
# makes that WIDTH x 800 (window.innerWidth reports it back).  A copy of
# the page runs layout_js's measure() once it has loaded and writes its
# JSON into the DOM, which --dump-dom prints; the requests the page made
# are its Resource Timing entries, its console messages chromium()'s.
# The whole page is then screenshot at WIDTH x its scrollHeight into
# out/report-WIDTH.png.
my $layout_js = <<'JS';
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
	const meta = document.querySelector('meta[name=viewport]');
	return {
		inner_width: vw, scroll_width: document.documentElement.scrollWidth,
		scroll_height: document.documentElement.scrollHeight,
		viewport_meta: meta ? meta.content : '', font_px: parseFloat(getComputedStyle(document.body).fontSize),
		sections, charts, tables,
		requests: performance.getEntriesByType('resource').map((e) => e.name)
			.filter((u) => !u.startsWith('file:')),
	};
}
addEventListener('load', () => {
	const pre = document.createElement('pre');
	pre.id = 'mt-layout';
	pre.textContent = JSON.stringify(measure());
	document.body.appendChild(pre);
});
JS
my @layout;
{
	mkdir("$top/out");
	require JSON::PP;
	my $measured = "$dir/layout.html";
	put($measured, $html =~ s{(?=</body>)}{<script>\n$layout_js</script>\n}r);
	for my $w (360, 1600) {
		my ($dom, $console) = chromium($measured, '--kiosk', "--screen-info={${w}x800}", '--dump-dom');
		my ($json) = $dom =~ m{<pre id="mt-layout">(\{.*?\})</pre>}s;
		ok(defined $json, "$w px: Chromium laid the page out and measured it") or
			diag(slurp("$dir/chromium.err")), next;
		$json =~ s/&lt;/</g, $json =~ s/&gt;/>/g, $json =~ s/&amp;/&/g;
		my $m = JSON::PP::decode_json($json);
		$m->{width} = $w;
		$m->{messages} = [@$console, map { "request $_" } @{$m->{requests}}];
		$m->{screenshot} = "$top/out/report-$w.png";
		unlink($m->{screenshot});
		chromium($page, '--kiosk', "--screen-info={${w}x$m->{scroll_height}}", "--screenshot=$m->{screenshot}");
		push @layout, $m;
	}
}
for my $m (@layout) {
	my $w = $m->{width};
	# Desktop Chromium lays out at the window's width whatever the tag
	# says: the tag must be the one that makes a phone do the same.
	ok($m->{viewport_meta} =~ /^width=device-width, initial-scale=1\b/ && $m->{inner_width} == $w,
	   "$w px: a viewport tag of the device's width, the page laid out $w px wide " .
	   "(tag '$m->{viewport_meta}', laid out $m->{inner_width})");
	ok($m->{scroll_width} <= $m->{inner_width}, "$w px: no horizontal overflow of the page " .
	   "(scrollWidth $m->{scroll_width}, innerWidth $m->{inner_width})");
	my @out = grep { $_->{left} < 0 || $_->{right} > $w } @{$m->{sections}};
	ok(@{$m->{sections}} == @sections && !@out, "$w px: every panel within the window") or
		diag(join(', ', map { "$_->{id} $_->{left}..$_->{right}" } @out));
	@out = grep { $_->{box_right} > $_->{section_right} } @{$m->{tables}};
	ok(@{$m->{tables}} >= 4 && !@out, "$w px: every table within its panel") or
		diag(join(', ', map { "$_->{section} $_->{box_right} > $_->{section_right}" } @out));
	my @small = grep { $_->{text_px} < 8 || $_->{box_right} > $w } @{$m->{charts}};
	ok(@{$m->{charts}} == keys %chart_min && !@small,
	   "$w px: every chart within the window, its text 8 px or more: " .
	   join(', ', map { "$_->{id} $_->{width} px wide, text $_->{text_px} px" } @{$m->{charts}}));
	is_deeply($m->{messages}, [], "$w px: no console message, no request");
	my %sec = map { $_->{id} => $_ } @{$m->{sections}};
	if ($w < 600) {
		ok($sec{heatmap}{left} == $sec{causes}{left} && $sec{heatmap}{top} > $sec{causes}{top},
		   "$w px: the two-column grids are one column");
		ok(grep({ $_->{scrolls} } @{$m->{tables}}) && grep({ $_->{scrolls} } @{$m->{charts}}),
		   "$w px: the wide tables and charts scroll inside their panel");
	} else {
		ok($sec{heatmap}{left} > $sec{causes}{right} && $sec{heatmap}{top} == $sec{causes}{top},
		   "$w px: the grids have two columns");
		ok(!grep({ $_->{scrolls} } @{$m->{tables}}, @{$m->{charts}}), "$w px: nothing needs to scroll");
		ok(!grep({ $_->{text_px} < 11 } @{$m->{charts}}), "$w px: the charts at their full size");
	}
	my ($all, $ink, $colored) = pixels($m->{screenshot});
	my ($pw) = png_rows($m->{screenshot});
	ok(($pw // 0) == $w && $ink > $all * 0.05 && $colored >= 10000,
	   "$w px: the screenshot $m->{screenshot} is $w px wide, with ink and colored data");
}
ok(@layout == 2, 'the layout was measured at both widths');

# ---- bad input ------------------------------------------------------------------------

put("$dir/bad.trace", slurp("$dir/run.trace") . "0xzz 1 2 3\n");
my $before = slurp($page);
$out = `$report -o $page $dir/bad.trace 2>&1`;
ok($? >> 8 == 2 && $out =~ /^migrate_report: .*bad\.trace:\d+: / && ($out =~ tr/\n//) == 1 &&
   slurp($page) eq $before, 'a malformed trace: one line, status 2, the page left as it was') or diag($out);
$out = `$report -o $page $dir/run.trace $dir/missing.stat 2>&1`;
ok($? >> 8 == 2 && $out =~ /missing\.stat: No such file/ && ($out =~ tr/\n//) == 1, 'a missing stat: one line');

# ---- the guest's trace and stat -----------------------------------------------------------

my ($gt, $gs) = map { "$top/out/check/$_" } qw(stat_window_trace stat);
SKIP: {
	skip('the guest kept no trace and stat in out/check (MT_ALLOW_SKIP)', 4)
		if !(-s $gt && -s $gs) && $ENV{MT_ALLOW_SKIP};
	ok(-s $gt && -s $gs, 'the guest kept a trace and the stat of its window in out/check') or last;
	$out = `$report -o $dir/guest.html $gt $gs 2>&1`;
	($dom, $console) = chromium("$dir/guest.html", '--dump-dom');
	ok($? == 0 && !@$console && !grep({ $dom !~ /<section id="$_">/ } @sections),
	   'the guest\'s page: every section, no console message') or diag("$out @$console");
	my (%stats, $in);
	for (`$top/scripts/migrate_stats --stats $gt 2>/dev/null`) {
		$in = 1, next if /^cause\s+count/;
		last if $in && /^total/;
		$stats{$1} = $2 if $in && /^(\w+)\s+(\d+)\s/ && $2 > 0;
	}
	my ($t) = $dom =~ /<section id="causes">(.*?)<\/section>/s;
	is_deeply({ ($t // '') =~ /<\/span>(\w+)<\/td><td>(\d+)<\/td>/g }, \%stats,
		  'its cause table equals migrate_stats --stats');
	my $g = chart_ink(slurp("$dir/guest.html"), 'guest');
	# The guest's window may hold a few dozen moves: less ink than the
	# generated trace's thresholds ask, but an empty chart has none.
	ok(!grep({ ($g->{$_} // 0) < 500 } keys %chart_min),
	   'its charts have data: ' . join(', ', map { "$_ " . ($g->{$_} // 0) } sort keys %chart_min));
}
ok(time() - $t0 < 200, sprintf('the test took %.0f s', time() - $t0));
done_testing();
