#!/usr/bin/perl
# scripts/migrate_plot --timeline: a valid PNG and a valid SVG with one
# lane per task (the busiest N with --top, or the --pid list), lanes
# labelled with the pid and name, busiest at the top, and a key of the
# causes drawn.  The PNG is decoded here (zlib, PNG filters) and its
# lane bands counted down a column of pixels.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(png_pixels);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $plot = "$top/scripts/migrate_plot";
my $dir = tempdir(CLEANUP => 1);
unless (`command -v gnuplot 2>/dev/null`) {
	print "1..1\nnot ok 1 - gnuplot is not installed (harness/deps.sh installs gnuplot-nox)\n";
	exit(1);
}

# Lanes: runs of the two band colors down a column, other colors (lines,
# points, their anti-aliasing) skipped; the most over a few columns.
sub lanes {
	my ($w, $h, $rows) = @_;
	my %band = ('221 230 243' => 'a', '243 236 221' => 'b');
	my $most = 0;
	for (my $x = 10; $x < $w; $x += 37) {
		my ($runs, $last) = (0, '');
		for my $y (0 .. $h - 1) {
			my $b = $band{"@{$rows->[$y][$x]}"} or next;
			$runs++ if $b ne $last;
			$last = $b;
		}
		$most = $runs if $runs > $most;
	}
	return $most;
}

# Seven tasks; task k migrates 5 + 3 k times, with causes 1 and 2 only
# for tasks 0 to 3 and cause 3 only for the others.
my @causes = qw(try_to_wake_up detach_tasks push_rt_task);
my $trace = "# version 1.2.0\n# nr_cpus 4\n# ts_field 1\n" .
	join('', map { "# cause " . ($_ + 1) . " $causes[$_]\n" } 0 .. 2) .
	"# loc 4 copy_process\n# loc 5 set_task_comm\n# loc 6 task_list\n# loc 7 mark\n# reason 1 r1\n";
my $ts = 1e9;
$trace .= sprintf("0x%016x 0 . . %d 6 : name %d\n", $ts, 300 + $_, $_) for 0 .. 6;
my @on = (0) x 7;
my @left = map { 5 + 3 * $_ } 0 .. 6;
srand(42);
while (grep { $_ } @left) {
	my $k = int(rand(7));
	next unless $left[$k];
	$left[$k]--;
	my $to = ($on[$k] + 1 + int(rand(3))) % 4;
	$ts += 1e6;
	$trace .= sprintf("0x%016x %d %d %d %d %d 1\n", $ts, $to, $on[$k], $to, 300 + $k, $k > 3 ? 3 : 1 + $k % 2);
	$on[$k] = $to;
}
open(my $fh, '>', "$dir/trace") or die;
print $fh $trace;
close($fh);

my $out = `$plot --timeline --top 4 -o $dir/top.png $dir/trace 2>&1`;
is($out, "$dir/top.png\n", '--timeline --top 4 writes a PNG') or diag($out);
my ($w, $h, $rows) = png_pixels("$dir/top.png");
ok($w && $h > 200, "a valid PNG (${\($w // 0)}x${\($h // 0)})");
is(lanes($w, $h, $rows), 4, 'four lanes in the picture');

$out = `$plot --timeline --top 4 -o $dir/top.svg $dir/trace 2>&1`;
my $svg = do { local (@ARGV, $/) = ("$dir/top.svg"); <> } // '';
like($svg, qr/\A<\?xml.*<svg.*<\/svg>\s*\z/s, 'a whole SVG');
is(scalar(() = $svg =~ /<polygon fill = 'rgb\((221, 230, 243|243, 236, 221)\)'/g), 4, 'four lane bands in the SVG');
my @labels = $svg =~ />(30\d name \d)</g;
# gnuplot writes the tic labels from the bottom up.
is_deeply(\@labels, ['303 name 3', '304 name 4', '305 name 5', '306 name 6'],
	  'the four busiest tasks label the lanes, busiest at the top');
my @key = grep { $svg =~ />\Q$_\E</ } @causes;
is_deeply(\@key, ['detach_tasks', 'push_rt_task'], 'the key names the causes drawn, no other');

$out = `$plot --timeline --pid 300 --pid 302 --pid 301 -o $dir/pids.png < $dir/trace 2>&1`;
($w, $h, $rows) = png_pixels("$dir/pids.png");
is(lanes($w, $h, $rows), 3, '--pid: one lane per pid given (trace on standard input)');
`$plot --timeline --pid 300 --pid 302 --pid 301 -o $dir/pids.svg $dir/trace`;
$svg = do { local (@ARGV, $/) = ("$dir/pids.svg"); <> } // '';
is_deeply([$svg =~ />(30\d name \d)</g], ['301 name 1', '302 name 2', '300 name 0'], '--pid: lanes in the order given, from the top');

$out = `$plot --timeline --top 100 -o $dir/all.svg $dir/trace 2>&1`;
$svg = do { local (@ARGV, $/) = ("$dir/all.svg"); <> } // '';
is(scalar(() = $svg =~ /<polygon fill = 'rgb\((221, 230, 243|243, 236, 221)\)'/g), 7,
   '--timeline --top 100, the most it takes: a lane for each of the seven tasks');
# CR LF line ends: read as LF ones (MigrateTrace::Format), the same
# lanes and the same key.
open($fh, '>', "$dir/crlf") or die;
print $fh $trace =~ s/\n/\r\n/gr;
close($fh);
$out = `$plot --timeline --top 4 -o $dir/crlf.svg $dir/crlf 2>&1`;
$svg = do { local (@ARGV, $/) = ("$dir/crlf.svg"); <> } // '';
is_deeply([$svg =~ />(30\d name \d)</g], ['303 name 3', '304 name 4', '305 name 5', '306 name 6'],
	  'CR LF: the same lanes and labels') or diag($out);
is_deeply([grep { $svg =~ />\Q$_\E</ } @causes], ['detach_tasks', 'push_rt_task'], 'CR LF: the key names the causes drawn');

for my $b (['--timeline --top 0', qr/--top N wants/], ['--timeline --top 101', qr/--top N wants/], ['--heatmap --timeline', qr/exclude/], ['--top 3', qr/need --timeline/]) {
	my $err = `$plot $b->[0] -o $dir/x.png $dir/trace 2>&1 >/dev/null`;
	ok($? >> 8 == 2 && $err =~ $b->[1] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0]") or diag($err);
}
done_testing();
