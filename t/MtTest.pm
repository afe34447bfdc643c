# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the tools' tests: one temporary directory per test
# program, files written into it, and a command's exit code, standard
# output and error output.
package MtTest;
use strict;
use warnings;
use Exporter qw(import);
use File::Temp qw(tempdir);

our @EXPORT_OK = qw(tmpdir write_file run);

my $dir;

# MT_FAIL_FAST=1, as harness/mutants.pl sets it: the test program ends at
# its first failure, all that a mutant's run needs to know.
if ($ENV{MT_FAIL_FAST}) {
	require Test2::API;
	Test2::API::test2_stack()->top->listen(sub {
		my ($hub, $event) = @_;
		exit(1) if $event->causes_fail;
	});
}

# The test's temporary directory, removed when it exits.
sub tmpdir {
	$dir //= tempdir(CLEANUP => 1);
	return $dir;
}

# Write TEXT to NAME in the temporary directory; its path.
sub write_file {
	my ($name, $text) = @_;
	my $path = tmpdir() . "/$name";
	open(my $fh, '>', $path) or die "$path: $!\n";
	print $fh $text;
	close($fh);
	return $path;
}

# Run CMD through the shell: (exit code, standard output, error output).
sub run {
	my ($cmd) = @_;
	my $err = tmpdir() . '/err';
	my $out = `$cmd 2>$err`;
	my $rc = $? >> 8;
	my $text = do { local (@ARGV, $/) = ($err); <> } // '';
	return ($rc, $out, $text);
}

1;
