#!/usr/bin/perl
# scripts/migrate_extract: header queries, rate series, timestamps,
# windows and errors on a generated stat file; and the guest's real stat.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path($0));
use MtTest qw(guest_file);
my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $tool = "$top/scripts/migrate_extract";
my $dir = tempdir(CLEANUP => 1);

sub run {
	my ($args, $input) = @_;
	open(my $fh, '>', "$dir/in") or die;
	print $fh $input;
	close($fh);
	my $out = `TZ=UTC $tool $args $dir/in 2>$dir/err`;
	my $rc = $? >> 8;
	my $err = do { local (@ARGV, $/) = ("$dir/err"); <> };
	return ($rc, $out, $err);
}

# 2023-11-14 22:13:20.500 UTC; 250 ms periods.
my $hdr = "# version 1.1.0\n# period_msec 250\n# gettimeofday 1700000000 500000\n" .
	"# ts_field 1\n# nr_cpus 4\n# field 2 alpha\n# field 3 beta\n# field 4 migrate\n";
my @rows = ([1, 2], [0, 0], [5, 1], [3, 3], [10, 0]);
my $body = '';
for my $i (0 .. $#rows) {
	my ($a, $b) = @{$rows[$i]};
	$body .= sprintf("%d.%03d %d %d %d\n", $i * 250 / 1000, ($i * 250) % 1000, $a, $b, $a + $b);
}
my $stat = $hdr . $body;

my %q = (field_name => ['3', 'beta'], field_num => ['migrate', '4'], min_field => ['', '2'],
	 max_field => ['', '4'], nr_cpus => ['', '4'], period_msec => ['', '250'],
	 ts_field => ['', '1'], header_version => ['', '1.1.0']);
for my $k (sort keys %q) {
	my ($rc, $out) = run("--$k $q{$k}[0]", $stat);
	is($out, "$q{$k}[1]\n", "--$k prints $q{$k}[1]");
}
my ($rc, $out, $err) = run('-field_name 2', $stat);
is($out, "alpha\n", 'single-dash options work');

($rc, $out) = run('--extract 2', $stat);
is($out, join('', map { sprintf("%d.%03d %.2f\n", $_ * 250 / 1000, ($_ * 250) % 1000, $rows[$_][0] * 4) } 0 .. $#rows),
   '--extract gives rates per second with two decimals');
($rc, $out) = run('--extract 4 --ts_gmt', $stat);
like($out, qr/\A22:13:20\.500 12\.00\n22:13:20\.750 0\.00\n/, '--ts_gmt uses # gettimeofday');
($rc, $out) = run('--extract 4 --ts_gmt --ts_date', $stat);
like($out, qr{\A2023/11/14 22:13:20\.500 12\.00\n}, '--ts_date adds the date');
($rc, $out) = run('--extract 3 --ts_loc --ts_date', $stat);
like($out, qr{\A2023/11/14 22:13:20\.500 8\.00\n}, '--ts_loc (TZ=UTC) matches');
($rc, $out) = run('--extract 2 --begin_msec 500 --end_msec 1000', $stat);
is($out, "0.500 20.00\n0.750 12.00\n", '--begin_msec/--end_msec: begin inclusive, end exclusive');
($rc, $out) = run('--extract 2 --begin_gmt "2023/11/14 22:13:21.250"', $stat);
is($out, "0.750 12.00\n1.000 40.00\n", '--begin_gmt selects by wall clock');
($rc, $out) = run('--extract 2 --end_loc "2023/11/14 22:13:21.000"', $stat);
is($out, "0.000 4.00\n0.250 0.00\n", '--end_loc selects by local wall clock');

my @bad = (
	['two queries', '--min_field --max_field', $stat, qr/one header query/],
	['query and extract', '--min_field --extract 2', $stat, qr/not both/],
	['nothing asked', '', $stat, qr/nothing to do/],
	['field out of range', '--extract 9', $stat, qr/field 9 is not in the header/],
	['unknown field name', '--field_num gamma', $stat, qr/no field named 'gamma'/],
	['missing header item', '--nr_cpus', $stat =~ s/# nr_cpus 4\n//r, qr/no '# nr_cpus' line/],
	['major version 2', '--min_field', $stat =~ s/1\.1\.0/2.0.0/r, qr/not 1\.x/],
	['malformed row', '--extract 2', $hdr . "0.000 1 2 3\nbogus 1 2 3\n", qr/:10: bad timestamp/],
	['non-numeric value', '--extract 3', $hdr . "0.000 1 x 3\n", qr/:9: field 3 is not a number/],
	['bad wall time', '--extract 2 --begin_gmt yesterday', $stat, qr/--begin_gmt wants/],
	['ts_date alone', '--extract 2 --ts_date', $stat, qr/--ts_date needs/],
	['no header', '--extract 2', $body, qr/no '# version'/],
);
for my $b (@bad) {
	my ($name, $args, $in, $re) = @$b;
	($rc, $out, $err) = run($args, $in);
	ok($rc != 0 && $err =~ $re && ($err =~ tr/\n//) == 1, "refused with one line: $name")
		or diag("rc=$rc err=$err");
}

# The guest's real stat: make check's guest leaves it; run alone without
# it, one plain failure says so (MtTest::guest_file).
if (my $real = guest_file("$top/out/check/stat")) {
	my $n = `$tool --field_num migrate $real`;
	chomp $n;
	like($n, qr/^\d+$/, "real stat: migrate is field $n");
	my $period = `$tool --period_msec $real`;
	my @rates = map { (split ' ')[1] } `$tool --extract $n $real`;
	my @raw = map { (split ' ')[$n - 1] } grep { !/^#/ } `cat $real`;
	is_deeply([map { sprintf('%.0f', $_ * $period / 1000) } @rates], \@raw,
		  'real stat: each row\'s rate times the period gives its count back');
}
done_testing();
