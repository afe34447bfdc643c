#!/usr/bin/perl
# make check-scale: the 64-CPU guest's dump on panic (mt_dump_on_oops=40),
# checked as t/24-panic-dump.t checks the 32-CPU guest's: the newest
# records of every one of the 64 CPUs, in time order, ending with the
# marks written just before the panic.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);

$ENV{MT_TOP} //= abs_path(dirname($0) . '/../..');
$ENV{MT_PANIC_GUEST} = 'check-scale';
my $t = "$ENV{MT_TOP}/t/24-panic-dump.t";
do $t;
die "$t: $@" if $@;
