#!/usr/bin/perl
# scripts/migrate_record against a stand-in for debugfs (--debugfs): its
# control files are plain files, trace_pipe and trace hold a trace, so no
# kernel is needed.  A recording copies the stream (or, with --flight,
# the dump) to its file and the stat to its own, exits with the
# command's status, and leaves every setting it changed as it found it,
# whatever that was; bad options are one line and exit 2.
use strict;
use warnings;
use Test::More;
use File::Path qw(make_path);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use FindBin;
use lib $FindBin::RealBin;
use MtTest qw(tmpdir run put);

my $top = $ENV{MT_TOP} // abs_path(dirname($0) . '/..');
my $rec = "$top/scripts/migrate_record";
my $dir = tmpdir();

sub get {
	my ($f) = @_;
	open(my $fh, '<', $f) or return "(no $f)";
	local $/;
	my $v = <$fh>;
	$v =~ s/\n\z// if defined $v;
	return $v;
}

my $pipe = "# version 1.2.0\n0x0000000000000001 1 0 1 7 1\n";
my $dump = "# version 1.2.0\n0x0000000000000002 0 1 0 7 1\n";
my $stat = "# version 1.2.0\n# period_msec 250\n0.000 1\n";
# A debugfs whose settings are ENABLE, OVERWRITE, SIZE and the stat's
# STAT_ENABLE and PERIOD.
sub debugfs {
	my (%v) = @_;
	my $d = "$dir/debugfs";
	make_path("$d/migration_trace", "$d/migration_stat");
	put("$d/migration_trace/$_", "$v{$_}\n") for qw(enable overwrite buffer_size_kb);
	put("$d/migration_trace/trace_pipe", $pipe);
	put("$d/migration_trace/trace", $dump);
	put("$d/migration_trace/stats", "cpu events dropped overwritten\ntotal 2 0 0\n");
	put("$d/migration_trace/reset", '');
	put("$d/migration_stat/enable", "$v{stat_enable}\n");
	put("$d/migration_stat/period_msec", "$v{period_msec}\n");
	put("$d/migration_stat/stat", $stat);
	put("$d/migration_stat/reset", '');
	return $d;
}
sub settings {
	my ($d) = @_;
	return join(' ', map { get("$d/migration_trace/$_") } qw(enable overwrite buffer_size_kb)) . ' ' .
		join(' ', map { get("$d/migration_stat/$_") } qw(enable period_msec));
}

for my $old ([0, 0, 1024, 0, 1000], [1, 1, 2048, 1, 500]) {
	my %v;
	@v{qw(enable overwrite buffer_size_kb stat_enable period_msec)} = @$old;
	my $d = debugfs(%v);
	my ($rc, $out, $err) = run("$rec --debugfs $d -q -o $dir/out --stat $dir/stat --period 250 --size 64 -- true");
	is($rc, 0, "settings @$old: exit 0, the command's status") or diag($err);
	is(get("$dir/out"), $pipe =~ s/\n\z//r, '... the trace is the stream of trace_pipe');
	is(get("$dir/stat"), $stat =~ s/\n\z//r, '... the stat is migration_stat/stat');
	is(settings($d), "@$old", '... every setting is back as it was');
	$d = debugfs(%v);
	($rc, $out, $err) = run("$rec --debugfs $d -q --flight -o $dir/flight -- sh -c 'exit 3'");
	is($rc, 3, "settings @$old, --flight: exit 3, the command's status") or diag($err);
	is(get("$dir/flight"), $dump =~ s/\n\z//r, '... the trace is the dump of migration_trace/trace');
	is(settings($d), "@$old", '... every setting is back as it was');
}

my $d = debugfs(enable => 0, overwrite => 0, buffer_size_kb => 1024, stat_enable => 0, period_msec => 1000);
for my $b (['--period 250 -- true', qr/--period needs --stat/], ['--stat x --period 2x5 -- true', qr/--period: not a number/],
	   ['--size 1k -- true', qr/--size: not a number/], ['--bogus -- true', qr/unknown option: --bogus/],
	   ['-o', qr/-o needs a file/], ['', qr/no command to run/]) {
	my ($rc, $out, $err) = run("$rec --debugfs $d -q $b->[0]");
	ok($rc == 2 && $err =~ $b->[1] && ($err =~ tr/\n//) == 1, "refused with one line: $b->[0]") or diag("exit $rc: $err");
}
is(settings($d), '0 0 1024 0 1000', 'a refused command line changes no setting');
done_testing();
