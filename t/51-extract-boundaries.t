#!/usr/bin/perl
# migrate_extract at its edges, on stat files made here: a row's time
# rounded to the millisecond, never cut; a wall-clock window's fraction
# read as the fraction of a second it is (.5 is 500 ms); windows that
# begin or end exactly on a row; the last millisecond of the year 9999;
# CR LF line ends read as LF ones (and CR alone refused); the timestamp's
# column, which no field may share; repeated header lines refused; two
# stats in one file, a header line after the rows and rows out of order
# or repeated refused, as migrate_exporter refuses them.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run write_file slurp);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $ex = "$top/scripts/migrate_extract";

# 2023-11-14 22:13:20.000 UTC; 250 ms periods; rows at times that a cut
# and a rounding to the millisecond tell apart (1.005 s is 1004.99... ms
# in binary floating point, 1.0006 s is 1000.59... ms).
my $hdr = "# version 1.2.0\n# period_msec 250\n# gettimeofday 1700000000 0\n# ts_field 1\n" .
	"# nr_cpus 2\n# field 2 a\n# field 3 migrate\n";
my @rows = (['0.000', 1, 1], ['0.250', 2, 3], ['1.0004', 5, 9], ['1.0006', 4, 7], ['1.005', 3, 5],
	    ['2.001', 6, 11], ['2.500', 7, 13]);
my %ms = ('0.000' => 0, '0.250' => 250, '1.005' => 1005, '1.0006' => 1001, '1.0004' => 1000,
	  '2.001' => 2001, '2.500' => 2500);
my $stat = write_file('stat', $hdr . join('', map { "@$_\n" } @rows));
sub rel { sprintf('%d.%03d', int($_[0] / 1000), $_[0] % 1000) }
sub want {
	my ($col, $pick) = @_;
	return join('', map { rel($ms{$_->[0]}) . sprintf(" %.2f\n", $_->[$col - 1] * 4) }
		    grep { $pick->($ms{$_->[0]}) } @rows);
}

my ($rc, $out, $err) = run("$ex --extract 2 $stat");
is($out, want(2, sub { 1 }), "a row's time is rounded to the millisecond: 1.005 s is 1.005, 1.0006 s is 1.001");
($rc, $out) = run("$ex --extract 3 --begin_msec 1001 --end_msec 2500 $stat");
is($out, want(3, sub { $_[0] >= 1001 && $_[0] < 2500 }), '--begin_msec on a row takes it, --end_msec on a row leaves it');
($rc, $out) = run("$ex --extract 3 --begin_msec 1000.6 --end_msec 2001 $stat");
is($out, want(3, sub { $_[0] >= 1000.6 && $_[0] < 2001 }), 'a window between rows');

# Wall-clock windows: hh:mm:ss.5 is 500 ms, .05 is 50 ms, .005 is 5 ms.
for my $c (['22:13:22.5', 2500], ['22:13:21.5', 1500], ['22:13:21.01', 1010], ['22:13:21.005', 1005],
	   ['22:13:20.25', 250], ['22:13:21.001', 1001]) {
	my ($t, $at) = @$c;
	($rc, $out, $err) = run("TZ=UTC $ex --extract 2 --begin_gmt '2023/11/14 $t' $stat");
	is($out, want(2, sub { $_[0] >= $at }), "--begin_gmt ...$t begins at $at ms") or diag($err);
	($rc, $out) = run("TZ=UTC $ex --extract 2 --end_loc '2023/11/14 $t' $stat");
	is($out, want(2, sub { $_[0] < $at }), "--end_loc ...$t (TZ=UTC) ends at $at ms");
}
($rc, $out, $err) = run("$ex --extract 2 --begin_msec 1005 --end_msec 1005 $stat");
is("$rc $out", '0 ', 'a window that ends where it begins is empty, not an error');
($rc, $out, $err) = run("$ex --extract 2 --begin_msec 1005 --end_msec 1004 $stat");
ok($rc == 2 && $err =~ /the window ends before it begins/, 'a window that ends before it begins: refused');

# The last millisecond a wall clock can show, and the next.
my $late = write_file('late', "# version 1.2.0\n# period_msec 1\n# gettimeofday 253402300799 998600\n" .
		      "# field 2 migrate\n0.000 1\n0.001 1\n");
($rc, $out, $err) = run("$ex --extract 2 --ts_gmt --ts_date $late");
ok($rc == 2 && $out eq '' && $err =~ /:6: timestamp beyond the year 9999$/,
   'a millisecond beyond 9999: refused, and nothing printed') or diag("$out$err");
($rc, $out, $err) = run("$ex --extract 2 --ts_gmt --ts_date " . write_file('late1', slurp($late) =~ s/0\.001 1\n\z//r));
is("$rc $out$err", "0 9999/12/31 23:59:59.999 1000.00\n", 'the last millisecond of 9999 is shown');

# ---- line ends ------------------------------------------------------------------------

my $crlf = write_file('crlf', ($hdr . join('', map { "@$_\n" } @rows)) =~ s/\n/\r\n/gr);
($rc, $out, $err) = run("$ex --field_num migrate $crlf");
is("$rc $out$err", "0 3\n", 'CR LF line ends: --field_num migrate finds the field');
($rc, $out) = run("$ex --field_name 3 $crlf");
is($out, "migrate\n", 'CR LF line ends: the name has no CR');
($rc, $out) = run("$ex --extract 3 $crlf");
is($out, want(3, sub { 1 }), 'CR LF line ends: the same series');
my $cr = write_file('cr', ($hdr . join('', map { "@$_\n" } @rows)) =~ s/\n/\r/gr);
($rc, $out, $err) = run("$ex --max_field $cr");
ok($rc == 2 && $err =~ /:1: a carriage return within the line/ && ($err =~ tr/\n//) == 1,
   'CR alone: refused with one line, not read as an empty file') or diag($err);

# ---- the timestamp's column, repeated lines ----------------------------------------------------

my @bad = (
	['# ts_field 0', $hdr =~ s/ts_field 1/ts_field 0/r, '--extract 2', qr/:4: bad ts_field line$/],
	['# ts_field 0, a header query', $hdr =~ s/ts_field 1/ts_field 0/r, '--ts_field', qr/:4: bad ts_field line$/],
	['# ts_field of a field', $hdr =~ s/ts_field 1/ts_field 3/r, '--extract 2', qr/'# ts_field 3' is also the number of a '# field' line$/],
	['a second # field 3', $hdr . "# field 3 other\n", '--extract 2', qr/:8: a second '# field 3' line$/],
	['a field name twice', $hdr . "# field 4 a\n", '--field_num a', qr/:8: a second field named 'a'$/],
	['a second # period_msec', $hdr . "# period_msec 100\n", '--period_msec', qr/:8: a second '# period_msec' line$/],
	['a second # version', $hdr . "# version 1.2.0\n", '--max_field', qr/:8: a second '# version' line$/],
	['# period_msec 0', $hdr =~ s/period_msec 250/period_msec 0/r, '--period_msec', qr/:2: bad period_msec line$/],
	['# nr_cpus 8193', $hdr =~ s/nr_cpus 2/nr_cpus 8193/r, '--nr_cpus', qr/:5: bad nr_cpus line$/],
);
for my $b (@bad) {
	my ($name, $h, $args, $re) = @$b;
	my $f = write_file('bad', $h . "0.000 1 1\n");
	($rc, $out, $err) = run("$ex $args $f");
	ok($rc == 2 && $err =~ $re && ($err =~ tr/\n//) == 1, "refused with one line: $name") or diag("exit $rc: $out$err");
}
($rc, $out) = run("$ex --nr_cpus " . write_file('n', $hdr =~ s/nr_cpus 2/nr_cpus 8192/r));
is($out, "8192\n", '# nr_cpus 8192 is taken');

# ---- the rows: one stat, in time order; the exporter's rules ---------------------------
# migrate_extract and migrate_exporter read a stat by the same rules
# (MigrateTrace::Stat): each of these is refused by both, with the same
# line but for the tool's name.  $hdr's fields are a and migrate: the
# exporter needs a stat that adds up (migrate = a).
my $add = "# version 1.2.0\n# period_msec 250\n# gettimeofday 1700000000 0\n# field 2 a\n# field 3 migrate\n";
my $rows2 = "0.000 1 1\n0.250 2 2\n";
for my $b (['two stats one after the other', $add . $rows2 . $add . $rows2, qr/:8: a header line after the first period$/],
	   ['a # period_msec after the rows', $add =~ s/# period_msec 250\n//r . $rows2 . "# period_msec 250\n",
	    qr/: no '# period_msec' line$/],
	   ['a second # period_msec after the rows', $add . $rows2 . "# period_msec 500\n",
	    qr/:8: a header line after the first period$/],
	   ['a comment after the rows', $add . $rows2 . "# a comment\n", qr/:8: a header line after the first period$/],
	   ['rows out of order', $add . "0.250 2 2\n0.000 1 1\n", qr/:7: periods out of order$/],
	   ['a row repeated', $add . $rows2 . "0.250 2 2\n", qr/:8: periods out of order$/]) {
	my ($name, $text, $re) = @$b;
	my $f = write_file('rows', $text);
	($rc, $out, $err) = run("$ex --extract 2 $f");
	ok($rc == 2 && $out eq '' && $err =~ $re && ($err =~ tr/\n//) == 1, "migrate_extract --extract: $name refused")
		or diag("exit $rc: $out$err");
	my ($qrc, $qout, $qerr) = run("$ex --max_field $f");
	ok($qrc == 2 && $qerr eq $err, "migrate_extract --max_field: $name refused alike") or diag("exit $qrc: $qout$qerr");
	my ($erc, $eout, $eerr) = run("$top/scripts/migrate_exporter --stat $f -o -");
	is("$erc " . ($eerr =~ s/^migrate_exporter: //r), "2 " . ($err =~ s/^migrate_extract: //r),
	   "migrate_exporter: $name refused with the same line");
}
# migrate_stats' --period_* output has times of up to 9 decimals: 0.25
# is 0.250, and a row a nanosecond after the one before is in order.
($rc, $out, $err) = run("$ex --extract 2 " . write_file('same', $add . "0.250 2 2\n0.25 1 1\n"));
ok($rc == 2 && $out eq '' && $err =~ /:7: periods out of order$/, '0.25 after 0.250: the same time, refused')
	or diag("exit $rc: $out$err");
($rc, $out, $err) = run("$ex --extract 2 " . write_file('ns', $add . "1.000000000 1 1\n1.000000001 2 2\n"));
is("$rc $out$err", "0 1.000 4.00\n1.000 8.00\n", 'rows 1 ns apart: in order');

# The timestamp in another column: fields 2 and 3, the time in column 4.
my $t4 = write_file('t4', "# version 1.2.0\n# period_msec 500\n# ts_field 4\n# field 2 a\n# field 3 b\n" .
		    "7 1 2 0.000\n8 3 4 0.500\n");
($rc, $out, $err) = run("$ex --extract 3 $t4");
is($out, "0.000 4.00\n0.500 8.00\n", '# ts_field 4 after fields 2 and 3: the time from column 4, field 3 from column 3')
	or diag($err);
($rc, $out, $err) = run("$ex --extract 2 " . write_file('t4b', "# version 1.2.0\n# period_msec 500\n# ts_field 4\n" .
							  "# field 2 a\n# field 3 b\n7 1 2 0.000 5\n"));
ok($rc == 2 && $err =~ /:6: want 3 values besides the timestamp, got 4$/, 'a row with a column too many') or diag($err);
done_testing();
