import { z } from 'zod';
import { SocialUser, type SocialPost } from '../../contract/social.js';
import { defineTool } from '../tool.js';

const Credits = {
  credits_cost: z.number().nullable().describe('credits this call cost'),
  credits_remaining: z.number().nullable().describe('credits left'),
};

const Author = z.object({ user_id: z.string(), username: z.string(), display_name: z.string() });
const Post = z.object({
  id: z.string(),
  url: z.string(),
  text: z.string(),
  created_at: z.string(),
  lang: z.string(),
  author: Author,
  likes: z.number().int(),
  reposts: z.number().int(),
  replies: z.number().int(),
  views: z.number().int(),
  hashtags: z.array(z.string()),
});

const postOf = (p: SocialPost): z.infer<typeof Post> => ({
  id: p.id,
  url: p.url,
  text: p.content,
  created_at: p.created_at,
  lang: p.lang,
  author: { user_id: p.author.user_id, username: p.author.username, display_name: p.author.display_name },
  likes: p.metrics.favorite_count,
  reposts: p.metrics.retweet_count,
  replies: p.metrics.reply_count,
  views: p.metrics.view_count,
  hashtags: p.hashtags,
});

export const socialSearch = defineTool({
  name: 'social_search',
  title: 'Search social posts',
  description:
    'Search social media posts with the advanced search syntax (words, "phrases", #hashtags, from:user, lang:en, min_replies:N, -filter:replies). Costs 1 credit per post returned; a free account is rate limited (the error gives the seconds to wait). Page with next_cursor.',
  input: z.object({
    query: z.string().min(1).max(1000),
    sort: z.enum(['Latest', 'Top']).default('Latest'),
    limit: z.number().int().min(1).max(100).default(10),
    cursor: z.string().max(2000).optional().describe('next_cursor of the previous page'),
  }),
  output: z.object({
    total: z.number().int(),
    has_next: z.boolean(),
    next_cursor: z.string(),
    posts: z.array(Post),
    ...Credits,
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api }) {
    const { data, billing } = await api.social.tweetSearch({
      query: args.query,
      query_type: args.sort,
      limit: args.limit,
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    return {
      structured: {
        total: data.total,
        has_next: data.has_next,
        next_cursor: data.next_cursor,
        posts: data.tweets.map(postOf),
        credits_cost: billing.cost,
        credits_remaining: billing.remaining,
      },
    };
  },
});

/** The profile fields an agent reads (the contract's user without its image links and badges). */
const USER_FIELDS = {
  user_id: true,
  username: true,
  display_name: true,
  description: true,
  followers_count: true,
  following_count: true,
  tweet_count: true,
  verified: true,
  location: true,
  url: true,
  created_at: true,
} as const;
const UserOut = SocialUser.pick(USER_FIELDS);
const userOf = (u: SocialUser): z.infer<typeof UserOut> => UserOut.parse(u);

export const socialUser = defineTool({
  name: 'social_user',
  title: 'Look up a social user',
  description:
    "A social media account's profile by username (with or without @): name, bio, follower and post counts. Costs 1 credit when found; found is false for an unknown name.",
  input: z.object({ username: z.string().min(1).max(51) }),
  output: z.object({ found: z.boolean(), user: UserOut.nullable(), ...Credits }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api }) {
    const { data, billing } = await api.social.userInfo({ usernames: [args.username] });
    const user = data.users[0];
    return {
      structured: {
        found: user !== undefined,
        user: user ? userOf(user) : null,
        credits_cost: billing.cost,
        credits_remaining: billing.remaining,
      },
    };
  },
});
