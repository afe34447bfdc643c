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
use Compress::Zlib qw(uncompress);

our @EXPORT_OK = qw(tmpdir write_file run put slurp png_rows png_pixels guest_file
		    prom_samples);

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

# PATHS, files a guest of make check leaves under out/ (out/check/trace,
# ...), if each is there and not empty (in scalar context the first);
# else nothing, after one test that names what is missing and how to get
# it: a failure, or under MT_ALLOW_SKIP=1 a skip.  A test that reads guest
# output calls this first and leaves out what needs the files when it
# returns nothing: run alone on a host without guest data, it fails (or
# skips) with that one plain message, easy to tell from a broken tool.
#   if (my $stat = guest_file("$top/out/check/stat")) { ... }
sub guest_file {
	my (@paths) = @_;
	my @missing = grep { !-s $_ } @paths;
	return wantarray ? @paths : $paths[0] unless @missing;
	my $why = 'needs guest data: ' . join(', ', map {
		($_ =~ s@^.*?/(out/)@$1@r) . (-e $_ ? ' is empty' : ' is missing') } @missing) .
		(grep({ m@/out/check-scale/@ } @missing) ? ' (run make check-scale)' :
		 ' (run make check first, or make guest-check)');
	require Test::More;
	my $tb = Test::More->builder;
	if ($ENV{MT_ALLOW_SKIP}) {
		$tb->skip($why);
	} else {
		$tb->ok(0, $why);
	}
	return;
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

# Write TEXT to the file PATH.
sub put {
	my ($path, $text) = @_;
	open(my $fh, '>', $path) or die "$path: $!\n";
	print $fh $text;
	close($fh);
}

# The text of the file PATH; '' if it cannot be read.
sub slurp {
	my ($path) = @_;
	open(my $fh, '<', $path) or return '';
	local $/;
	return scalar <$fh>;
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

# An 8-bit RGB or RGBA PNG decoded (zlib, the PNG filters): (width,
# height, bytes per pixel, rows as strings of bytes), or nothing if FILE
# is not such a whole PNG.
sub png_rows {
	my ($file) = @_;
	open(my $fh, '<:raw', $file) or return;
	local $/;
	my $d = <$fh>;
	return unless substr($d, 0, 8) eq "\x89PNG\r\n\x1a\n";
	my ($pos, $idat, $w, $h, $depth, $type) = (8, '');
	while ($pos + 8 <= length($d)) {
		my ($len, $tag) = unpack('N a4', substr($d, $pos, 8));
		my $body = substr($d, $pos + 8, $len);
		($w, $h, $depth, $type) = unpack('N N C C', $body) if $tag eq 'IHDR';
		$idat .= $body if $tag eq 'IDAT';
		$pos += 12 + $len;
		last if $tag eq 'IEND';
	}
	return unless $w && $depth == 8 && ($type == 2 || $type == 6);
	my $bpp = $type == 6 ? 4 : 3;
	my $raw = uncompress($idat) // return;
	my ($stride, @rows, @prev) = ($w * $bpp);
	@prev = (0) x $stride;
	for my $y (0 .. $h - 1) {
		my $f = ord(substr($raw, $y * ($stride + 1), 1));
		my @c = unpack('C*', substr($raw, $y * ($stride + 1) + 1, $stride));
		if ($f == 2) {
			$c[$_] = ($c[$_] + $prev[$_]) & 255 for 0 .. $#c;
		} elsif ($f) {
			for my $i (0 .. $#c) {
				my $a = $i >= $bpp ? $c[$i - $bpp] : 0;
				my ($b, $cc) = ($prev[$i], $i >= $bpp ? $prev[$i - $bpp] : 0);
				if ($f == 1) { $c[$i] = ($c[$i] + $a) & 255 }
				elsif ($f == 3) { $c[$i] = ($c[$i] + int(($a + $b) / 2)) & 255 }
				elsif ($f == 4) {
					my $p = $a + $b - $cc;
					my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $cc));
					$c[$i] = ($c[$i] + ($pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $cc)) & 255;
				}
			}
		}
		@prev = @c;
		push @rows, pack('C*', @c);
	}
	return ($w, $h, $bpp, \@rows);
}

# The pixels of such a PNG: (width, height, rows of [r, g, b] triples).
sub png_pixels {
	my ($w, $h, $bpp, $rows) = png_rows(@_) or return;
	return ($w, $h, [map { my @c = unpack('C*', $_); [map { [@c[$_ * $bpp .. $_ * $bpp + 2]] } 0 .. $w - 1] } @$rows]);
}

# The samples of metric NAME in Prometheus exposition TEXT, as
# {label values joined by ' ', in the order of the labels' names => value}.
sub prom_samples {
	my ($text, $name) = @_;
	my %v;
	for (split /\n/, $text) {
		next unless /^\Q$name\E(?:\{(.*)\})? (\S+)$/;
		my ($l, $v) = ($1 // '', $2);
		my %l = $l =~ /(\w+)="([^"]*)"/g;
		$v{join(' ', map { $l{$_} } sort keys %l)} = $v + 0;
	}
	return \%v;
}

1;
