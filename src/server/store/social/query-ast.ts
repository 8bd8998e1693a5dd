/**
 * The advanced search syntax as a tree. Operators are normalised at parse time (dates to Unix
 * seconds, names lowercased), so the compiler only maps nodes to conditions.
 */
export type FilterName =
  'replies' | 'media' | 'links' | 'images' | 'videos' | 'quote' | 'verified' | 'blue_verified' | 'retweets';

export type QueryNode =
  | { type: 'and'; items: QueryNode[] }
  | { type: 'or'; items: QueryNode[] }
  | { type: 'not'; item: QueryNode }
  /** A word, or with phrase: true an exact phrase; matched by full-text search. */
  | { type: 'text'; text: string; phrase: boolean }
  | { type: 'from' | 'to' | 'mention'; username: string }
  | { type: 'hashtag' | 'cashtag'; tag: string }
  | { type: 'lang'; lang: string }
  /** Unix seconds; since inclusive, until exclusive. */
  | { type: 'since' | 'until'; ts: number }
  | { type: 'since_id' | 'max_id'; id: string }
  | { type: 'min_faves' | 'min_retweets' | 'min_replies'; count: number }
  | { type: 'filter'; filter: FilterName }
  | { type: 'url'; text: string }
  | { type: 'conversation_id' | 'quoted_tweet_id'; id: string };
