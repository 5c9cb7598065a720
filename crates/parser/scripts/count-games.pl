#!/usr/bin/perl
# Independent game count for scripts/check-corpora: a second implementation, written
# separately from the Rust reader, of the rule documented in crates/parser/src/reader.rs:
#   - each tag section is one game, with or without movetext: a tag line after movetext
#     starts a new game, and inside a tag section a blank line followed by an Event tag
#     or a tag name the section already has starts a new one (tag-only broadcast exports);
#   - movetext with no tags before it is a game; after a line ending in a result, a line
#     starting with a move number or a move starts a new game without tags;
#   - brace comments hide everything, except a line that is exactly one tag pair, which
#     ends an unterminated comment and starts a new game;
#   - whitespace, comments, % lines and draw-offer marks ((=), «=») before a game's first
#     tag belong to that game: a draw-offer mark is not movetext;
#   - moves written on a tag's line after the tag ([Result "1-0"] e4 *) begin the movetext.
# Usage: count-games.pl FILE  (prints the number of games)
use strict;
use warnings;

my $path = shift or die "usage: count-games.pl FILE\n";
open(my $fh, '<:raw', $path) or die "cannot open $path: $!\n";
my $data = do { local $/; <$fh> };
close $fh;
$data =~ s/^\xEF\xBB\xBF//;

my $games = 0;
my $state = 'none';    # none (only trivia so far) | tags | moves
my $trivia = 0;        # the current game has comments or % lines
my $in_comment = 0;
my $blank = 0;
my %names;
my $after_result = 0;
my $space = qr/(?:[ \t\r\x0b\x0c]|\xEF\xBB\xBF|\xC2\xA0|\xA0)/;
my $tag_shaped = qr/^[ \t\r]*\[[ \t]*[A-Za-z0-9_]+[ \t]+"(?:[^"\\]|\\.)*"[ \t]*\][ \t\r]*$/;
my $move = qr/^(?:\d+[ \t]*\.|\d+(?:[ \t\r,{(]|$)|[O0o](?:-[O0o]){1,2}[+#]*(?:[ \t\r!?({,]|$)|(?:--|Z0)(?:[ \t\r!?({,]|$)|(?:[A-Z]|\xE2\x99[\x94-\x9F])?\@?[a-h1-8x:\-]*[a-h][1-8](?:=?[A-Z]|[qrbn])?[+#]*(?:[ \t\r!?({,\$]|[ae]\.|$)|[a-h]x?[a-h](?:[ \t\r!?({,]|$))/;

sub start_game {
    my ($next_state) = @_;
    $games++ if $state eq 'none' && $trivia;    # a game of comments only
    $games++;
    $state = $next_state;
    $trivia = 0;
    $in_comment = 0;
    $blank = 0;
    %names = ();
    $after_result = 0;
}

for my $line (split /\n/, $data, -1) {
    my $rest = $line;
    if ($in_comment) {
        if ($line =~ $tag_shaped) {
            start_game('none');
        } elsif ($rest =~ s/^[^}]*\}//) {
            $in_comment = 0;
            movetext($rest);
            line_end($line);
            next;
        } else {
            next;
        }
    }
    if ($line =~ /^%/) { $trivia = 1; line_end($line); next; }
    if ($line =~ /^$space*\[[ \t]*([^ \t"\]\r]*)/) {
        my $name = $1;
        if ($state eq 'moves' || ($state eq 'tags' && $blank && ($name eq 'Event' || exists $names{$name}))) {
            start_game('tags');
        } elsif ($state eq 'none') {
            $games++;
            $state = 'tags';
        }
        $names{$name} = 1;
        $blank = 0;
        $after_result = 0;
        # Moves written after the tag on the same line ([Result "1-0"] e4 *)
        # begin the movetext.
        if ($line =~ /^$space*\[(?:[^"\]]|"(?:[^"\\]|\\.)*")*\](.*)$/) {
            my $after = $1;
            if ($after =~ /^$space*(?:[^ \t\r\[{;%]|$)/ && $after =~ /[^ \t\r]/) {
                my ($first) = $after =~ /^$space*(.*)$/;
                if ($first =~ $move || $first =~ /^(?:1-0|0-1|1\/2-1\/2|\*)/) {
                    movetext($after);
                    line_end($line);
                }
            }
        }
        next;
    }
    if ($line =~ /^$space*$/) { $blank = 1 if $state eq 'tags'; next; }
    my ($first) = $line =~ /^$space*(.*)$/;
    if ($state eq 'moves' && $after_result && $first =~ $move) {
        start_game('moves');
    }
    movetext($rest);
    line_end($line);
}
$games++ if $state eq 'none' && $trivia;
print "$games\n";

# Follows comments through the rest of a line; visible text makes the game movetext.
sub movetext {
    my ($rest) = @_;
    while (length $rest) {
        if ($in_comment) {
            if ($rest =~ s/^[^}]*\}//) { $in_comment = 0; } else { $rest = ''; }
            next;
        }
        my ($visible) = $rest =~ /^([^{;]*)/;
        $rest = substr($rest, length $visible);
        (my $marks_removed = $visible) =~ s/\(=\)|\xC2\xAB=\xC2\xBB|\xAB=\xBB//g;
        $trivia = 1 if $marks_removed ne $visible;
        if ($marks_removed =~ /[^ \t\r\x0b\x0c]/) {
            $games++ if $state eq 'none';
            $state = 'moves';
        }
        if ($rest =~ s/^\{//) { $in_comment = 1; $trivia = 1; }
        elsif ($rest =~ /^;/) { $rest = ''; $trivia = 1; }
    }
}

# Notes whether a line that is not in a comment ends with a result.
sub line_end {
    my ($line) = @_;
    return if $in_comment;
    $line =~ s/[ \t\r]+$//;
    return if $line eq '';
    my ($word) = $line =~ /([^ \t\x0b\x0c]*)$/;
    $after_result = ($state eq 'moves' && $word =~ /^(?:1-0|0-1|1\/2-1\/2|\*|\xC2\xBD-\xC2\xBD|\xBD-\xBD)$/) ? 1 : 0;
}
